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
        let newThread = waiting.withLock { waiting -> Int? in
            waiting.jobs.append(job)
            guard waiting.threads < width else { return nil }
            waiting.threads += 1
            return waiting.threads - 1
        }
        if let slot = newThread {
            let thread = Thread { [self] in work(slot: slot) }
            thread.name = "albums password check"
            thread.start()
        }
        jobCount.signal()
    }

    private func work(slot: Int) {
        Self.yieldToOthers(slot: slot)
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
    ///
    /// And a core of its own to run on: the `slot`-th from the last the
    /// process may use. Left free to wander, a busy thread at SCHED_IDLE
    /// is moved onto whichever core a request's thread just left, and the
    /// request's next hand-off waits for it: measured, a signed-in person's
    /// p99 went from 2.3 to 4.7 ms beside such a loop, and stayed at 2.4
    /// beside the same loop held on one core.
    private static func yieldToOthers(slot: Int) {
        #if os(Linux)
            var parameters = sched_param()
            parameters.sched_priority = 0
            // 5: SCHED_IDLE (<sched.h> declares it for _GNU_SOURCE only); 0: the calling thread.
            if sched_setscheduler(0, 5, &parameters) != 0 {
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            }
            holdOnOneCore(slot: slot)
        #endif
    }

    #if os(Linux)
        /// Glibc's `sched_getaffinity` and `sched_setaffinity`, which Swift's
        /// Glibc module leaves out (GNU extensions): found at run time.
        private typealias Affinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32

        /// Keeps the calling thread on one of the cores the process may use,
        /// counted from the last; nothing when there is only one, or the
        /// calls are not there.
        private static func holdOnOneCore(slot: Int) {
            guard let getSymbol = dlsym(nil, "sched_getaffinity"), let setSymbol = dlsym(nil, "sched_setaffinity") else { return }
            let (get, set) = (unsafeBitCast(getSymbol, to: Affinity.self), unsafeBitCast(setSymbol, to: Affinity.self))
            var allowed = cpu_set_t()
            guard withUnsafeMutableBytes(of: &allowed, { get(0, $0.count, $0.baseAddress!) }) == 0 else { return }
            let cores = withUnsafeBytes(of: allowed) { bits in (0..<bits.count * 8).filter { bits[$0 / 8] & UInt8(1 << ($0 % 8)) != 0 } }
            guard cores.count > 1 else { return }
            let core = cores[cores.count - 1 - slot % cores.count]
            var chosen = cpu_set_t()
            withUnsafeMutableBytes(of: &chosen) { bits in bits[core / 8] |= UInt8(1 << (core % 8)) }
            _ = withUnsafeMutableBytes(of: &chosen) { set(0, $0.count, $0.baseAddress!) }
        }
    #endif
}
