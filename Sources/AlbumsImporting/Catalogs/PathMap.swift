/// Where a catalog's paths lie on this machine: a catalog made on another
/// machine, a Windows drive or a macOS volume names its originals by paths
/// that start elsewhere here (`--map /Volumes/Photos=/media/ana/Photos`).
///
/// ```swift
/// let map = try PathMap(["D:\\Pictures=/media/ana/pictures"])
/// map.local("D:\\Pictures\\2024\\a.jpg")  // "/media/ana/pictures/2024/a.jpg"
/// ```
public struct PathMap: Hashable, Sendable {
    /// Each rule, longest old prefix first.
    public let rules: [Rule]

    /// A path prefix in the catalog and where it lies here.
    public struct Rule: Hashable, Sendable {
        /// The prefix as the catalog writes it.
        public let old: String
        /// Where it lies on this machine.
        public let new: String
    }

    /// Why a rule cannot be used.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The rule as given.
        public let rule: String
        public var description: String { "a path map takes OLD=NEW, two non-empty path prefixes; got \(rule)" }
    }

    /// No rules: every path as the catalog gives it.
    public static let none = PathMap(rules: [])

    private init(rules: [Rule]) {
        self.rules = rules
    }

    /// Rules written `OLD=NEW`; the first `=` splits them.
    ///
    /// - Throws: ``Failure`` for a rule without `=` or with an empty side.
    public init(_ rules: [String]) throws(Failure) {
        var parsed: [Rule] = []
        for rule in rules {
            guard let split = rule.firstIndex(of: "=") else { throw Failure(rule: rule) }
            let (old, new) = (String(rule[..<split]), String(rule[rule.index(after: split)...]))
            guard !old.isEmpty, !new.isEmpty else { throw Failure(rule: rule) }
            parsed.append(Rule(old: old, new: new))
        }
        self.rules = parsed.sorted { $0.old.count > $1.old.count }
    }

    /// `path` as it lies here: the longest matching prefix replaced, a
    /// Windows path's backslashes made slashes; unchanged when no rule matches.
    public func local(_ path: String) -> String {
        for rule in rules where Self.starts(path, with: rule.old) {
            var rest = String(path.dropFirst(rule.old.count))
            if Self.isWindows(rule.old) { rest = rest.replacingOccurrences(of: "\\", with: "/") }
            if !rest.isEmpty && !rest.hasPrefix("/") && !rule.new.hasSuffix("/") { rest = "/" + rest }
            return rule.new + rest
        }
        return path
    }

    /// Whether `prefix` is a Windows path: a drive letter, or backslashes.
    private static func isWindows(_ prefix: String) -> Bool {
        prefix.contains("\\") || (prefix.dropFirst().hasPrefix(":") && prefix.first?.isLetter == true)
    }

    /// Whether `path` starts with `prefix` as a whole folder (`/a/b` starts
    /// `/a/b/c`, not `/a/bc`). A Windows prefix (`D:…`, or one with
    /// backslashes) matches as Windows compares paths: in any case, either slash.
    private static func starts(_ path: String, with prefix: String) -> Bool {
        if isWindows(prefix) {
            func folded(_ text: Substring) -> String { text.replacingOccurrences(of: "\\", with: "/").lowercased() }
            guard path.count >= prefix.count, folded(path.prefix(prefix.count)) == folded(prefix[...]) else { return false }
        } else if !path.hasPrefix(prefix) {
            return false
        }
        if path.count == prefix.count || prefix.hasSuffix("/") || prefix.hasSuffix("\\") { return true }
        let next = path[path.index(path.startIndex, offsetBy: prefix.count)]
        return next == "/" || next == "\\"
    }
}
