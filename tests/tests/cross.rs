//! Invariants that span crates.

use fairdeal_core::{Cards, Preset, Rules, canonical_deck};
use fairdeal_crypto::CardTable;
use fairdeal_net::hand::card_of_id;

/// The crypto card ids (and their points) map onto exactly the rules engine's pack, in the
/// engine's canonical order: the audited deck is the engine's deck.
#[test]
fn crypto_card_ids_are_the_engines_pack_in_canonical_order() {
    for preset in Preset::ALL {
        let rules = Rules::preset(preset);
        let n = rules.deck_size() as u16;
        let table = CardTable::new(n).expect("card table");
        let from_ids: Vec<_> = (0..n).map(card_of_id).collect();
        assert_eq!(from_ids, canonical_deck(&rules), "{preset}");
        let ids: Cards = from_ids.iter().collect();
        assert_eq!(ids.len(), table.len());
    }
}
