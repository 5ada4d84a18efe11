import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Where a server checks passwords: a bounded pool of threads of its own.
///
/// A bcrypt check takes a quarter of a second of one core on purpose. Run
/// on Swift's concurrency threads (one per core) or the server's event
/// loops, a burst of wrong sign-ins would take every one of them, and
/// every other request would wait behind the guesses. Here at most
/// ``width`` checks run at once, on threads nothing else uses, at a lower
/// priority than the threads that serve requests; the rest queue, holding
/// no thread while they wait.
///
/// ```swift
/// let matches = await PasswordChecks.shared.run { hash.matches(password) }
/// ```
package final class PasswordChecks: Sendable {
    /// The pool every ``Library`` checks sign-ins and link passwords on.
    package static let shared = PasswordChecks(width: max(1, ProcessInfo.processInfo.activeProcessorCount / 2))

    /// How many checks run at once: half the cores, so that the other half
    /// keep serving while guesses are checked.
    package let width: Int
    private let waiting = Mutex<(jobs: [@Sendable () -> Void], threads: Int)>(([], 0))
    /// Counts the jobs waiting: a thread of the pool sleeps on it.
    private let jobCount = DispatchSemaphore(value: 0)

    package init(width: Int) {
        self.width = max(1, width)
    }

    /// `check`'s answer, computed on the pool.
    package func run<Answer: Sendable>(_ check: @escaping @Sendable () -> Answer) async -> Answer {
        await withCheckedContinuation { continuation in
            submit { continuation.resume(returning: check()) }
        }
    }

    private func submit(_ job: @escaping @Sendable () -> Void) {
        // Threads start as the first checks come, up to the width, and then stay.
        let startsThread = waiting.withLock { waiting in
            waiting.jobs.append(job)
            guard waiting.threads < width else { return false }
            waiting.threads += 1
            return true
        }
        if startsThread {
            let thread = Thread { [self] in work() }
            thread.name = "albums password check"
            thread.start()
        }
        jobCount.signal()
    }

    private func work() {
        Self.yieldToOthers()
        while true {
            jobCount.wait()
            guard let job = waiting.withLock({ $0.jobs.isEmpty ? nil : $0.jobs.removeFirst() }) else { continue }
            job()
        }
    }

    /// Gives the calling thread, one of the pool's own, the lowest priority:
    /// Linux's SCHED_IDLE, which runs only when no other thread wants the
    /// core, so that a thread serving a request never waits behind a
    /// guess (nice 10 still left a request waiting a scheduler slice).
    /// Any thread may lower its own; where that fails, nice 10.
    private static func yieldToOthers() {
        #if os(Linux)
            var parameters = sched_param()
            parameters.sched_priority = 0
            // 5: SCHED_IDLE (<sched.h> declares it for _GNU_SOURCE only); 0: the calling thread.
            if sched_setscheduler(0, 5, &parameters) != 0 {
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            }
        #endif
    }
}
