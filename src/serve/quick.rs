//! The quick lane: a few threads, one a core, that make the moves of rooms whose bots all
//! answer in microseconds ([`crate::core::Agent::quick`]). Other rooms' work (an expert's
//! search, a program's answer) runs on the bounded pool of game threads, so a quick room never
//! waits behind a slow one, and the quick moves stay on threads whose caches are warm: on 32
//! threads taking turns, a Koi-Koi move against greedy cost the server half as much again.

use std::sync::OnceLock;

type Job = Box<dyn FnOnce() + Send>;

/// The lane's queue; its threads start with the first job.
fn lane() -> &'static crossbeam_channel::Sender<Job> {
    static LANE: OnceLock<crossbeam_channel::Sender<Job>> = OnceLock::new();
    LANE.get_or_init(|| {
        let (jobs, queue) = crossbeam_channel::unbounded::<Job>();
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        for n in 0..threads {
            let queue = queue.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("yaku-quick-{n}"))
                .spawn(move || {
                    for job in queue.iter() {
                        // A job that panics fails alone: its caller is told, the thread goes on.
                        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                    }
                });
            if let Err(e) = spawned {
                eprintln!("yaku serve: a quick thread could not start: {e}");
            }
        }
        jobs
    })
}

/// Runs `job` on the quick lane and waits for it without holding an async thread; `None`
/// when it panicked (or no quick thread runs).
pub(super) async fn run<T: Send + 'static>(job: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    let (done, result) = tokio::sync::oneshot::channel();
    let job: Job = Box::new(move || {
        let _ = done.send(job());
    });
    lane().send(job).ok()?;
    result.await.ok()
}

#[cfg(test)]
mod tests {
    #[tokio::test]
    async fn a_job_runs_and_a_panic_fails_alone() {
        assert_eq!(super::run(|| 6 * 7).await, Some(42));
        let failed: Option<()> = super::run(|| panic!("a failing job")).await;
        assert_eq!(failed, None);
        assert_eq!(super::run(|| "again").await, Some("again"));
    }
}
