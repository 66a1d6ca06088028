//! Thread priorities: the threads that may wait lower their own, so that the ones a person or
//! the critical path waits on (a window's frames, a seat proving its shuffle step) keep the
//! cores. On Linux a nice value is a thread's own and a thread inherits its creator's; a
//! thread may always lower its priority, never raise it again. Elsewhere nothing changes.

/// Makes the calling thread `by` nicer than it is (capped at 19, the least priority). Where
/// that fails (or off Linux) it keeps its priority: the work is the same, only later.
pub fn lower_this_thread(by: i32) {
    #[cfg(target_os = "linux")]
    {
        let tid = rustix::thread::gettid();
        let now = rustix::process::getpriority_process(Some(tid)).unwrap_or(0);
        if let Err(e) = rustix::process::setpriority_process(Some(tid), (now + by).min(19)) {
            tracing::debug!("thread keeps its priority: {e}");
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = by;
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// The calling thread's nice value.
    fn this_thread_nice() -> i32 {
        rustix::process::getpriority_process(Some(rustix::thread::gettid())).unwrap_or(0)
    }

    #[test]
    fn a_thread_lowers_its_own_priority_and_no_other() {
        let before = this_thread_nice();
        let (inside, outside) = std::thread::spawn(move || {
            lower_this_thread(3);
            let inside = this_thread_nice();
            let child = std::thread::spawn(this_thread_nice).join().unwrap_or(-100);
            (inside, child)
        })
        .join()
        .unwrap_or((-100, -100));
        let want = (before + 3).min(19);
        assert_eq!(inside, want, "the thread is nicer");
        assert_eq!(outside, want, "a thread it starts inherits it");
        assert_eq!(this_thread_nice(), before, "the caller is not");
    }
}
