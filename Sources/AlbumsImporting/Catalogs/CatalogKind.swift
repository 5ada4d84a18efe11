import AlbumsPersistence
import Foundation

/// The organizers whose catalogs albums reads, as `import --from` names them.
public enum CatalogKind: String, Hashable, Sendable, CaseIterable {
    /// Apple Photos: ``ApplePhotosLibrary``.
    case applePhotos = "apple-photos"
    /// digiKam: ``DigikamCatalog``.
    case digikam
    /// Lightroom Classic: ``LightroomCatalog``.
    case lightroom
    /// Shotwell: ``ShotwellCatalog``.
    case shotwell
    /// A Google Takeout of Google Photos: ``GoogleTakeout``.
    case takeout

    /// The organizer's name, as its users know it.
    public var organizerName: String {
        switch self {
        case .applePhotos: "Apple Photos"
        case .digikam: "digiKam"
        case .lightroom: "Lightroom"
        case .shotwell: "Shotwell"
        case .takeout: "Google Photos"
        }
    }

    /// Reads the catalog at `path` as this kind's; `order`, which only a
    /// digiKam catalog takes (its albums' sort is a setting of the app,
    /// not of the catalog), overrides the order the catalog shows;
    /// `edited`, which only an Apple Photos library takes (the one that
    /// keeps its edits rendered), brings edited photos as rendered.
    ///
    /// - Throws: ``CatalogFailure``, ``PathMap/Failure``.
    public func read(_ path: String, map: PathMap = .none, order: TreeImportOrder? = nil, edited: Bool = false) throws -> CatalogImport {
        // Absolute, so that the paths a library or a Takeout gives its photos
        // are too: a photo loaded is known by its absolute path.
        let path = URL(fileURLWithPath: path).standardizedFileURL.path
        return switch self {
        case .applePhotos: try ApplePhotosLibrary.read(path, map: map, edited: edited)
        case .digikam: try DigikamCatalog.read(path, map: map, order: order)
        case .lightroom: try LightroomCatalog.read(path, map: map)
        case .shotwell: try ShotwellCatalog.read(path, map: map)
        case .takeout: try GoogleTakeout.read(path)
        }
    }

    /// The kind of catalog `path` is, told from the file itself (its tables,
    /// the folders a library or a Takeout holds, the name Google gives a
    /// Takeout's archives); nil for anything else,
    /// such as photos or a folder of them.
    public static func recognize(_ path: String) -> CatalogKind? {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        if isDirectory.boolValue {
            func has(_ relative: String) -> Bool { manager.fileExists(atPath: (path as NSString).appendingPathComponent(relative)) }
            if path.hasSuffix(".photoslibrary") || has("database/Photos.sqlite") { return .applePhotos }
            if GoogleTakeout.isPhotosFolder((path as NSString).lastPathComponent)
                || GoogleTakeout.photosFolderNames.contains(where: { has($0) || has("Takeout/" + $0) })
            {
                return .takeout
            }
            return nil
        }
        // Google names a Takeout's archives takeout-<time>-<part>.zip (or .tgz).
        if TakeoutArchives.isArchive(path) && (path as NSString).lastPathComponent.lowercased().hasPrefix("takeout-") { return .takeout }
        guard let file = try? ForeignDatabaseFile(path: path), let tables = try? file.columns() else { return nil }
        if tables["AgLibraryCollection"] != nil && tables["Adobe_images"] != nil { return .lightroom }
        if tables["AlbumRoots"] != nil && tables["Albums"] != nil && tables["Images"] != nil { return .digikam }
        if tables["PhotoTable"] != nil && tables["EventTable"] != nil { return .shotwell }
        if tables["ZGENERICALBUM"] != nil { return .applePhotos }
        return nil
    }
}
