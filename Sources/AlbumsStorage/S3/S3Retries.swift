import Foundation

/// When a request is tried again: after no answer, or an answer that says
/// the service is busy or failing (500, 502, 503, 504, 429), each wait
/// twice the last, up to a bound. A refusal (a wrong key, no such bucket)
/// is never tried again.
package struct S3Retries: Sendable {
    /// How many times a request is sent at most, the first included.
    package var attempts: Int
    /// The wait before the second attempt, in seconds.
    package var firstWait: Double
    /// The longest wait, in seconds.
    package var longestWait: Double
    /// Waits that long: `Task.sleep`, or in tests a clock of the test's.
    package var wait: @Sendable (Double) async -> Void

    package init(attempts: Int = 6, firstWait: Double = 0.25, longestWait: Double = 8, wait: @escaping @Sendable (Double) async -> Void = S3Retries.sleep) {
        self.attempts = max(1, attempts)
        self.firstWait = firstWait
        self.longestWait = longestWait
        self.wait = wait
    }

    /// Sleeps `seconds` on the task's clock (cancelled: at once).
    package static let sleep: @Sendable (Double) async -> Void = { seconds in
        try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
    }

    /// The wait before attempt `attempt` (2, 3, …).
    package func waitBefore(attempt: Int) -> Double {
        min(longestWait, firstWait * pow(2, Double(max(0, attempt - 2))))
    }

    /// Whether an answer of `status` is worth asking again.
    package static func isPassing(_ status: Int) -> Bool {
        [429, 500, 502, 503, 504].contains(status)
    }
}
