import Foundation

/// The volumes this machine has mounted, as an organizer that names a
/// folder by its volume (digiKam's `volumeid:?uuid=…`) needs them: where
/// the volume with a given filesystem UUID is mounted.
struct MountedVolumes: Sendable {
    /// Mount points by lowercased filesystem UUID.
    private let mountPoints: [String: String]

    /// The volumes of a mount table (`/proc/self/mounts`'s text: device,
    /// mount point with octal escapes, …) whose devices `devicesByUUID`
    /// names (`/dev/disk/by-uuid`'s links, resolved).
    init(mounts: String, devicesByUUID: [String: String]) {
        var byDevice: [String: String] = [:]
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 2 else { continue }
            let device = Self.unescaped(fields[0])
            // The first mount of a device is where it was mounted first; later ones are binds.
            if byDevice[device] == nil { byDevice[device] = Self.unescaped(fields[1]) }
        }
        var mountPoints: [String: String] = [:]
        for (uuid, device) in devicesByUUID {
            if let point = byDevice[device] { mountPoints[uuid.lowercased()] = point }
        }
        self.mountPoints = mountPoints
    }

    /// This machine's volumes, read now; none where the system does not say.
    static func system() -> MountedVolumes {
        let manager = FileManager.default
        let folder = "/dev/disk/by-uuid"
        var devices: [String: String] = [:]
        for uuid in (try? manager.contentsOfDirectory(atPath: folder)) ?? [] {
            guard let target = try? manager.destinationOfSymbolicLink(atPath: folder + "/" + uuid) else { continue }
            devices[uuid] = URL(fileURLWithPath: target, relativeTo: URL(fileURLWithPath: folder, isDirectory: true)).standardizedFileURL.path
        }
        let mounts = (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? ""
        return MountedVolumes(mounts: mounts, devicesByUUID: devices)
    }

    /// Where the volume whose filesystem UUID is `uuid` is mounted; nil when it is not.
    func mountPoint(ofVolume uuid: String) -> String? { mountPoints[uuid.lowercased()] }

    /// A mount table's field with its octal escapes (`\040` for a space) undone.
    private static func unescaped(_ field: Substring) -> String {
        guard field.contains("\\") else { return String(field) }
        var bytes: [UInt8] = []
        var utf8 = Array(field.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "\\"), utf8.count >= 3, let value = UInt8(String(decoding: utf8.prefix(3), as: UTF8.self), radix: 8) {
                bytes.append(value)
                utf8 = utf8.dropFirst(3)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
