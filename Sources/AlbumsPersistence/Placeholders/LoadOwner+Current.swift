import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension LoadOwner {
    /// This process: host name, process id and when it started.
    public static let current = LoadOwner(
        host: ProcessInfo.processInfo.hostName, processID: ProcessInfo.processInfo.processIdentifier,
        processStartedAt: processStartTime(of: ProcessInfo.processInfo.processIdentifier))

    /// The owner of a load that no process runs: a placeholder that undo or
    /// redo brought back. It is stale at once; `albums pending resume`
    /// restarts its load.
    public static let stopped = LoadOwner(
        host: ProcessInfo.processInfo.hostName, processID: ProcessInfo.processInfo.processIdentifier,
        processStartedAt: stoppedMarker)

    /// The start time ``stopped`` records: no process ever started then.
    static let stoppedMarker = "stopped"

    /// Whether the owning process is known to be gone: it ran on this host
    /// and no process with its id and start time exists any more, or it is
    /// ``stopped``.
    ///
    /// An owner on another host cannot be checked from here and is not
    /// called gone.
    public var isGone: Bool {
        if processStartedAt == Self.stoppedMarker { return true }
        guard host == ProcessInfo.processInfo.hostName else { return false }
        if kill(processID, 0) != 0 && errno == ESRCH { return true }
        // A killed process whose parent has not reaped it yet still has its
        // id, but will never run again.
        if Self.isZombie(processID) { return true }
        // The id exists; it is the owner only if it started when the owner did.
        guard let recorded = processStartedAt else { return false }
        return Self.processStartTime(of: processID) != recorded
    }

    /// Whether the process has ended and waits only to be reaped (Linux's
    /// state `Z`, the field after the command name in /proc/PID/stat).
    static func isZombie(_ processID: Int32) -> Bool {
        #if os(Linux)
            guard let stat = try? String(contentsOfFile: "/proc/\(processID)/stat", encoding: .utf8),
                let closing = stat.lastIndex(of: ")")
            else { return false }
            return stat[stat.index(after: closing)...].split(separator: " ").first == "Z"
        #else
            return false
        #endif
    }

    /// An identity of a process's start that survives neither its exit nor
    /// a reboot, or nil where the system does not tell.
    static func processStartTime(of processID: Int32) -> String? {
        #if os(Linux)
            // /proc/PID/stat: the command name (field 2) is in parentheses and may
            // hold spaces; field 22, start time in clock ticks since boot, counts
            // from after the closing parenthesis.
            guard let stat = try? String(contentsOfFile: "/proc/\(processID)/stat", encoding: .utf8),
                let closing = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: closing)...].split(separator: " ")
            guard fields.count > 19 else { return nil }
            let bootID = (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "boot"
            return "\(bootID):\(fields[19])"
        #elseif canImport(Darwin)
            var info = kinfo_proc()
            var size = MemoryLayout<kinfo_proc>.stride
            var name: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, processID]
            guard sysctl(&name, 4, &info, &size, nil, 0) == 0, size > 0 else { return nil }
            let start = info.kp_proc.p_un.__p_starttime
            return "\(start.tv_sec).\(start.tv_usec)"
        #else
            return nil
        #endif
    }
}
