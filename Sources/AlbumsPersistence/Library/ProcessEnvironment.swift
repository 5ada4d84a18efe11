#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's environment, read a variable at a time.
///
/// `ProcessInfo.processInfo.environment` copies every variable into a new
/// dictionary at each call; a command that wants two variables at start-up
/// should not pay for that.
package enum ProcessEnvironment {
    /// The value of the variable `name`, or nil when it is not set.
    package static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
