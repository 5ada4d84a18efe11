import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The XMP sidecar beside a photo, where another program keeps what people
/// wrote on it: `IMG_1.jpg.xmp` (digiKam, darktable, and albums' own
/// export), else `IMG_1.xmp` (Lightroom), in either case of `.xmp`. A
/// sidecar is read with its photo, never imported as a file of its own.
enum XMPSidecarFile {
    /// The largest sidecar read: XMP of words and marks is a few kilobytes.
    static let sizeLimit = 4 << 20

    /// The sidecar's bytes beside `photo`; nil when there is none.
    static func contents(beside photo: URL) -> Data? {
        let stem = photo.deletingPathExtension().path
        for path in [photo.path + ".xmp", photo.path + ".XMP", stem + ".xmp", stem + ".XMP"] where path != photo.path {
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) <= sizeLimit else { continue }
            return try? Data(contentsOf: URL(fileURLWithPath: path))
        }
        return nil
    }

    /// The names among `names` (the files of one folder) that are the
    /// sidecar of another of them: each is read with that photo.
    static func sidecars(among names: [String]) -> Set<String> {
        let all = Set(names)
        // Each photo's name without its extension: what Lightroom's sidecar is named by.
        var stems = Set<String>()
        for name in names where !name.lowercased().hasSuffix(".xmp") { stems.insert((name as NSString).deletingPathExtension) }
        return Set(names.filter { name in
            guard name.count > 4, name.lowercased().hasSuffix(".xmp") else { return false }
            let base = String(name.dropLast(4))
            return all.contains(base) || stems.contains(base)
        })
    }
}
