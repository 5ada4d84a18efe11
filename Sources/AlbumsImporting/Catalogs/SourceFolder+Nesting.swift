/// Folders of a catalog that knows each folder by its path (digiKam's
/// albums, Lightroom's folders): nested as their paths are, each folder
/// between known by its path until a row of the catalog names it.
extension SourceFolder {
    /// Puts `photos` in the folder `parts` names below this one, making the
    /// folders on the way (each known by `walked` and its path from here);
    /// the folder at the end is known by `key`, and comes from `path` where
    /// given, described by `description`.
    mutating func nest(_ photos: [String], at parts: [String], key: String, path: String? = nil, description: String? = nil, walked: String) {
        guard let first = parts.first else { return }
        let here = walked + "/" + first
        let index: Int
        if let found = folders.firstIndex(where: { $0.name == first }) {
            index = found
        } else {
            folders.append(SourceFolder(name: first, path: here, key: "dir\(here)"))
            index = folders.count - 1
        }
        guard parts.count == 1 else { return folders[index].nest(photos, at: Array(parts.dropFirst()), key: key, path: path, description: description, walked: here)
        }
        folders[index].photos += photos
        folders[index].key = key
        if let path { folders[index].path = path }
        if let description { folders[index].description = description }
    }

    /// Drops folders with no photo anywhere under them, and sorts what is
    /// left by name, as a folders panel lists them.
    mutating func pruneEmpty() {
        for index in folders.indices { folders[index].pruneEmpty() }
        folders = folders.filter { $0.photoCount > 0 }.sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
    }
}
