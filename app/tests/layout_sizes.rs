//! The window at the sizes players use, checked where things are most easily cut or squeezed:
//! the start screen centred in a wide window, and at 1024×700 the rows under the hand.

mod common;

use egui_kittest::kittest::Queryable;
use fairdeal::gui::app::FairdealApp;

use common::window;

/// Sabotage caught (checked): with the two columns spread over the whole width, the
/// settings sat at the window's left edge and the block was far left of the centre.
#[test]
fn the_start_screen_is_centred_in_a_wide_window() {
    let dir = std::env::temp_dir().join(format!("fairdeal-start-wide-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for size in [[1920.0, 1080.0], [1024.0, 700.0]] {
        let mut h = window(FairdealApp::for_tests(dir.clone(), 5), size);
        for _ in 0..5 {
            h.step();
        }
        let width = h.ctx.content_rect().width();
        let rect = |label: &str| {
            h.query_all_by(|n| {
                n.label().is_some_and(|l| l == label) || n.value().is_some_and(|v| v == label)
            })
            .map(|n| n.rect())
            .next()
            .unwrap_or_else(|| panic!("no {label:?}"))
        };
        let left = rect("Your name").left();
        let right = rect("Join by invitation").right();
        let centre = (left + right) / 2.0;
        assert!(
            (centre - width / 2.0).abs() < width * 0.08,
            "{size:?}: the block {left}..{right} is centred in {width}"
        );
        assert!(right <= width, "{size:?}: nothing past the right edge");
        if size[0] > 1500.0 {
            assert!(
                left > width * 0.1,
                "{size:?}: not at the left edge ({left})"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
