import Foundation

/// Where a server checks passwords: a bounded pool of threads of its own.
///
/// A bcrypt check takes a quarter of a second of one core on purpose. Run
/// on Swift's concurrency threads (one per core) or the server's event
/// loops, a burst of wrong sign-ins would take every one of them, and
/// every other request would wait behind the guesses. Here at most
/// ``width`` checks run at once, on threads nothing else uses; the rest
/// queue, holding no thread while they wait.
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
    private let queue: OperationQueue

    package init(width: Int) {
        self.width = max(1, width)
        queue = OperationQueue()
        queue.name = "albums password checks"
        queue.maxConcurrentOperationCount = self.width
        queue.qualityOfService = .utility
    }

    /// `check`'s answer, computed on the pool.
    package func run<Answer: Sendable>(_ check: @escaping @Sendable () -> Answer) async -> Answer {
        await withCheckedContinuation { continuation in
            queue.addOperation { continuation.resume(returning: check()) }
        }
    }
}
