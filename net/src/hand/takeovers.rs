//! Who plays each seat by computer player, and whose client runs it: [`Takeovers`], the one
//! value the table keeps, a deal's header records and the transcript check follows, with the
//! rules that read it (who runs a seat taken over next, and whose votes speak for whom).
//! The table and the check call these same methods, so the two cannot count differently.

use fairdeal_core::{Seat, SeatMap, SeatSet};

use super::types::Replacement;

/// The computer players of a deal, by seat: `None` where the seat's own player plays.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Takeovers(pub SeatMap<Option<Replacement>>);

/// Whether a seat's latest signed quit (the hand it names) is still its word: signed at the
/// hand it was last given back at (`back_at`) or later.
pub fn quit_stands(quit: Option<u32>, back_at: u32) -> bool {
    quit.is_some_and(|h| h >= back_at)
}

impl Takeovers {
    /// No seat taken over.
    pub const NONE: Self = Self(SeatMap([None; 4]));

    /// From the per-seat array a header or a configuration carries.
    pub fn from_array(bots: [Option<Replacement>; 4]) -> Self {
        Self(SeatMap(bots))
    }

    /// From a returning player's state: who runs each seat, and the seeds of those that are
    /// run (a seed where no seat is run means nothing and is dropped).
    pub fn from_parts(runners: SeatMap<Option<Seat>>, seeds: SeatMap<[u8; 32]>) -> Self {
        Self(SeatMap::from_fn(|s| {
            runners[s].map(|runner| Replacement {
                runner,
                seed: seeds[s],
            })
        }))
    }

    /// The per-seat array a header or a configuration carries.
    pub fn to_array(self) -> [Option<Replacement>; 4] {
        self.0.0
    }

    /// Who runs each seat, and each run seat's seed (zeros elsewhere): a returning player's
    /// state.
    pub fn to_parts(self) -> (SeatMap<Option<Seat>>, SeatMap<[u8; 32]>) {
        (
            self.runners(),
            SeatMap(self.0.0.map(|b| b.map_or([0; 32], |b| b.seed))),
        )
    }

    /// Who runs each seat's computer player, by seat.
    pub fn runners(&self) -> SeatMap<Option<Seat>> {
        SeatMap(self.0.0.map(|b| b.map(|b| b.runner)))
    }

    /// The computer player in `seat`, if one plays it.
    pub fn get(&self, seat: Seat) -> Option<Replacement> {
        self.0[seat]
    }

    /// Whose client runs `seat`'s computer player, if one plays it.
    pub fn runner(&self, seat: Seat) -> Option<Seat> {
        self.0[seat].map(|b| b.runner)
    }

    /// The client that speaks for `seat`: its runner's for a computer player, else its own.
    pub fn client(&self, seat: Seat) -> Seat {
        self.runner(seat).unwrap_or(seat)
    }

    /// The seats whose computer players `runner`'s client runs.
    pub fn run_by(&self, runner: Seat) -> SeatSet {
        Seat::ALL
            .into_iter()
            .filter(|&s| self.runner(s) == Some(runner))
            .collect()
    }

    /// The seats in `seats` and the computer players their clients run, which go with them.
    pub fn with_run_by(&self, seats: SeatSet) -> SeatSet {
        seats.iter().fold(seats, |all, s| all.union(self.run_by(s)))
    }

    /// The seats leaving, the one rule of the table and of the transcript check: each seat
    /// no computer player plays whose latest signed quit (the hand it names, `quit`) is of the
    /// hand it was last given back at (`back_at`) or later, and the computer players their
    /// clients run, which go with them.
    pub fn leaving(&self, quit: &SeatMap<Option<u32>>, back_at: &SeatMap<u32>) -> SeatSet {
        let standing: SeatSet = Seat::ALL
            .into_iter()
            .filter(|&s| self.0[s].is_none() && quit_stands(quit[s], back_at[s]))
            .collect();
        self.with_run_by(standing)
    }

    /// The seats a computer player plays.
    pub fn taken(&self) -> SeatSet {
        Seat::ALL
            .into_iter()
            .filter(|&s| self.0[s].is_some())
            .collect()
    }

    /// A computer player takes `seat`, run by `runner` with `seed`.
    pub fn take(&mut self, seat: Seat, runner: Seat, seed: [u8; 32]) {
        self.0[seat] = Some(Replacement { runner, seed });
    }

    /// `seat`'s player has it back.
    pub fn give_back(&mut self, seat: Seat) {
        self.0[seat] = None;
    }

    /// Who runs the computer player that takes `seat` over, with the seats out of the deal
    /// with it (`gone`): its partner if that is a player (a seat no computer player plays,
    /// not out), else the lowest player; nobody when no player is left. A runner may run
    /// several (the last person at a table runs all three).
    ///
    /// Whom the rule picks changes only when the seat picked leaves itself: seats leaving
    /// only ever make fewer seats eligible, and the first eligible seat stays first. So
    /// however the quits of seats leaving at once reach each peer, every peer ends with the
    /// same runners, and the transcript check, given every seat a header takes over, finds
    /// them too. The one rule for the table that picks the runner and the check that holds a
    /// header's runner to it.
    pub fn runner_for(&self, seat: Seat, gone: SeatSet) -> Option<Seat> {
        std::iter::once(seat.partner())
            .chain(Seat::ALL)
            .find(|&s| s != seat && self.0[s].is_none() && !gone.contains(s))
    }

    /// The seats timeout votes from `voters` speak for: each voter's, and those of the
    /// computer players it runs (it hears what they would).
    pub fn vote_cover(&self, voters: SeatSet) -> SeatSet {
        Seat::ALL
            .into_iter()
            .filter(|&s| voters.contains(self.client(s)))
            .chain(voters.iter())
            .collect()
    }

    /// Whether votes that speak for the seats `covered` put `seat` out of its deal: they
    /// cover every seat but those of `seat`'s own client, so a silent runner and the computer
    /// players it runs are voted out by the others alone. The one count for the table and the
    /// transcript check.
    pub fn voted_out(&self, seat: Seat, covered: SeatSet) -> bool {
        Seat::ALL
            .into_iter()
            .filter(|&s| self.client(s) != self.client(seat))
            .all(|s| covered.contains(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(pairs: &[(Seat, Seat)]) -> Takeovers {
        let mut t = Takeovers::NONE;
        for &(seat, runner) in pairs {
            t.take(seat, runner, [seat.number(); 32]);
        }
        t
    }

    /// A seat is leaving while its latest quit is of the hand it was last given back at or
    /// later and no computer player has taken it yet; the computer players its client runs
    /// leave with it.
    #[test]
    fn a_quit_stands_from_the_hand_given_back_at_until_the_seat_is_taken_over() {
        let south_runs_west = run(&[(Seat::W, Seat::S)]);
        let mut quit = SeatMap([None; 4]);
        let mut back_at = SeatMap([0; 4]);
        assert_eq!(south_runs_west.leaving(&quit, &back_at), SeatSet::EMPTY);
        quit[Seat::S] = Some(3);
        let south_and_west: SeatSet = [Seat::S, Seat::W].into_iter().collect();
        assert_eq!(south_runs_west.leaving(&quit, &back_at), south_and_west);
        back_at[Seat::S] = 3;
        assert_eq!(south_runs_west.leaving(&quit, &back_at), south_and_west);
        back_at[Seat::S] = 4;
        assert_eq!(
            south_runs_west.leaving(&quit, &back_at),
            SeatSet::EMPTY,
            "signed before South was given back"
        );
        quit[Seat::W] = Some(9);
        assert_eq!(
            south_runs_west.leaving(&quit, &back_at),
            SeatSet::EMPTY,
            "West is a computer player already"
        );
    }

    /// The partner runs a seat taken over if it is a player; else the lowest player, though
    /// it runs one already; a seat out or played by a computer player runs none; with no
    /// player left, nobody.
    #[test]
    fn the_runner_is_the_partner_else_the_lowest_player() {
        let none = Takeovers::NONE;
        assert_eq!(none.runner_for(Seat::N, SeatSet::EMPTY), Some(Seat::S));
        assert_eq!(none.runner_for(Seat::E, SeatSet::EMPTY), Some(Seat::W));
        let south_runs_west = run(&[(Seat::W, Seat::S)]);
        assert_eq!(
            south_runs_west.runner_for(Seat::N, SeatSet::EMPTY),
            Some(Seat::S),
            "the partner, though it runs West"
        );
        assert_eq!(
            south_runs_west.runner_for(Seat::E, SeatSet::EMPTY),
            Some(Seat::S),
            "West is a computer player: the lowest player"
        );
        let mut gone = SeatSet::EMPTY;
        gone.insert(Seat::S);
        assert_eq!(none.runner_for(Seat::N, gone), Some(Seat::W));
        let alone = run(&[(Seat::N, Seat::W), (Seat::E, Seat::W)]);
        assert_eq!(
            alone.runner_for(Seat::S, SeatSet::EMPTY),
            Some(Seat::W),
            "West, the one person left, runs all three"
        );
        let mut out = SeatSet::EMPTY;
        out.insert(Seat::W);
        assert_eq!(alone.runner_for(Seat::S, out), None, "nobody is left");
    }

    /// Seats leaving at once, their quits in any order: each peer picks its runners as the
    /// seats out stand when it hears of each, taking a seat over once its runner is known to
    /// stay, and every order ends with the runners the rule picks for all of them at once.
    #[test]
    fn runners_do_not_depend_on_the_order_seats_leave_in() {
        // A team leaves at once: each would have picked the other first.
        let before = Takeovers::NONE;
        let leaving = [Seat::S, Seat::N];
        let all: SeatSet = leaving.into_iter().collect();
        let at_once: Vec<Option<Seat>> =
            leaving.iter().map(|&s| before.runner_for(s, all)).collect();
        for order in [[Seat::S, Seat::N], [Seat::N, Seat::S]] {
            let mut gone = SeatSet::EMPTY;
            let mut picked = SeatMap::<Option<Seat>>::default();
            for s in order {
                gone.insert(s);
                for out in gone.iter() {
                    picked[out] = before.runner_for(out, gone);
                }
            }
            let got: Vec<Option<Seat>> = leaving.iter().map(|&s| picked[s]).collect();
            assert_eq!(got, at_once, "order {order:?}");
        }
        assert_eq!(
            at_once,
            [Some(Seat::W); 2],
            "West, the lowest player staying"
        );
    }

    /// A runner's vote speaks for the computer players it runs, and a seat is out once every
    /// other client has voted: its runner's silence takes its computer players out with it.
    #[test]
    fn votes_count_by_client() {
        let t = run(&[(Seat::N, Seat::S)]);
        let mut voters = SeatSet::EMPTY;
        voters.insert(Seat::W);
        voters.insert(Seat::E);
        let covered = t.vote_cover(voters);
        assert_eq!(covered, voters, "South votes for North only when it votes");
        assert!(t.voted_out(Seat::S, covered), "South and its North are out");
        assert!(t.voted_out(Seat::N, covered));
        assert!(
            !t.voted_out(Seat::W, covered),
            "nobody spoke for South's client"
        );
        voters.insert(Seat::S);
        let covered = t.vote_cover(voters);
        assert!(covered.contains(Seat::N), "South's vote speaks for North");
        let mut west = SeatSet::EMPTY;
        west.insert(Seat::W);
        assert!(
            !t.voted_out(Seat::E, t.vote_cover(west)),
            "West alone of the others is not enough against East"
        );
        assert!(t.voted_out(Seat::E, t.vote_cover(voters)));
    }

    /// A returning player's state goes both ways without loss, and a seed where no seat is
    /// run is dropped.
    #[test]
    fn parts_round_trip() {
        let t = run(&[(Seat::W, Seat::N), (Seat::E, Seat::S)]);
        let (runners, seeds) = t.to_parts();
        assert_eq!(Takeovers::from_parts(runners, seeds), t);
        assert_eq!(seeds[Seat::S], [0; 32]);
        let mut stray = seeds;
        stray[Seat::S] = [7; 32];
        assert_eq!(Takeovers::from_parts(runners, stray), t);
        assert_eq!(t.run_by(Seat::N).len(), 1);
        let leaving: SeatSet = [Seat::N].into_iter().collect();
        assert_eq!(
            t.with_run_by(leaving).iter().collect::<Vec<_>>(),
            vec![Seat::W, Seat::N]
        );
        assert_eq!(t.taken().len(), 2);
        assert_eq!(Takeovers::from_array(t.to_array()), t);
    }
}
