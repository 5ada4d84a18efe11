import AlbumsImageFacts
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A Live Photo's motion: the short movie a phone keeps beside the still,
/// under the same name with a movie's extension (`IMG_0042.HEIC` and
/// `IMG_0042.MOV`; a Google Takeout's `.MP4`), or with `_3` after it, as
/// Apple Photos keeps it in its library's originals (`4F2C….heic` and
/// `4F2C…_3.mov`). It is read with its still and never imported as a file
/// of its own: the two are one item.
///
/// The still and its motion belong together when both carry Apple's
/// content identifier and it is the same (the still's maker note, the
/// movie's `com.apple.quicktime.content.identifier`); where either lacks
/// one, by their name alone, and only for a movie as short as a Live
/// Photo's, so that a camera's clip that happens to share a photo's number
/// stays a video of its own.
enum LivePhotoMotion {
    /// The longest motion paired by name alone, in seconds (a Live Photo's runs about three).
    static let longestByName = 6.0

    /// The extensions a motion is looked for under, in the order tried.
    static let extensions = ["MOV", "mov", "MP4", "mp4", "Mov", "Mp4"]

    /// The motion beside the still at `still`, whose content identifier is
    /// `identifier` (nil: it carries none), with its facts; nil when it has none.
    static func motion(beside still: URL, identifier: String?) -> (url: URL, facts: VideoFacts)? {
        for (candidate, byIdentifierOnly) in candidates(beside: still) {
            guard candidate.path != still.path else { continue }
            var info = stat()
            guard stat(candidate.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, case .video = MediaKind(ofFileAt: candidate.path),
                let facts = try? VideoHeaderReader.read(fileAt: candidate.path)
            else { continue }
            // Apple Photos' `_3` name is no camera's: only the same identifier pairs it, never the name.
            let belongs = byIdentifierOnly ? identifier != nil && identifier == facts.contentIdentifier : belong(stillIdentifier: identifier, motion: facts)
            if belongs { return (candidate, facts) }
        }
        return nil
    }

    /// The motion of the still named `still`, whose content identifier is
    /// `identifier`, among `movies` (the facts of the movies of its folder,
    /// by name), by the rules of ``motion(beside:identifier:)``: for files
    /// read from an archive, where nothing is on disk to look beside.
    static func motion(ofStill still: String, identifier: String?, among movies: [String: VideoFacts]) -> String? {
        for (candidate, byIdentifierOnly) in candidates(beside: URL(fileURLWithPath: "/" + still)) {
            let name = candidate.lastPathComponent
            guard name != still, let facts = movies[name] else { continue }
            let belongs = byIdentifierOnly ? identifier != nil && identifier == facts.contentIdentifier : belong(stillIdentifier: identifier, motion: facts)
            if belongs { return name }
        }
        return nil
    }

    /// The names among `names` that may be a still and its motion, by their
    /// names alone: the movies, and the other files of a movie's stem.
    static func possiblePairs(among names: [String]) -> Set<String> {
        let movieExtensions = Set(extensions)
        var movieStems: [String: [String]] = [:]
        for name in names where movieExtensions.contains((name as NSString).pathExtension) {
            let stem = (name as NSString).deletingPathExtension
            movieStems[stem, default: []].append(name)
            if stem.hasSuffix(applePhotosSuffix) { movieStems[String(stem.dropLast(applePhotosSuffix.count)), default: []].append(name) }
        }
        guard !movieStems.isEmpty else { return [] }
        var pairs = Set<String>()
        for name in names where !movieExtensions.contains((name as NSString).pathExtension) {
            guard let movies = movieStems[(name as NSString).deletingPathExtension] else { continue }
            pairs.insert(name)
            pairs.formUnion(movies)
        }
        return pairs
    }

    /// Apple Photos' suffix for a Live Photo's motion in its originals.
    static let applePhotosSuffix = "_3"

    /// The movies a still's motion may be, in the order tried: its name with
    /// each movie extension, then Apple Photos' `_3` names (paired by
    /// identifier only).
    static func candidates(beside still: URL) -> [(url: URL, byIdentifierOnly: Bool)] {
        let stem = still.deletingPathExtension()
        let apple = still.deletingLastPathComponent().appending(path: stem.lastPathComponent + applePhotosSuffix)
        return extensions.map { (stem.appendingPathExtension($0), false) } + ["mov", "MOV"].map { (apple.appendingPathExtension($0), true) }
    }

    /// The extensions a motion's still is looked for under, from the motion's side.
    static let stillExtensions = ["HEIC", "heic", "JPG", "jpg", "JPEG", "jpeg", "HEIF", "heif", "PNG", "png"]

    /// The still whose motion the movie at `movie` is, by the same rules
    /// as ``motion(beside:identifier:)`` seen from the still: nil when it is
    /// a video of its own. So a motion given alone, listed by a catalog, or
    /// uploaded beside its still is read with that still, never twice.
    static func still(of movie: URL) -> URL? {
        let stem = movie.deletingPathExtension()
        var stems = [stem]
        if stem.lastPathComponent.hasSuffix(applePhotosSuffix) {
            stems.append(stem.deletingLastPathComponent().appending(path: String(stem.lastPathComponent.dropLast(applePhotosSuffix.count))))
        }
        for stem in stems {
            if let still = still(of: movie, stem: stem) { return still }
        }
        return nil
    }

    /// The still named `stem` with a photo's extension whose motion is `movie`.
    private static func still(of movie: URL, stem: URL) -> URL? {
        for fileExtension in stillExtensions {
            let candidate = stem.appendingPathExtension(fileExtension)
            var info = stat()
            guard candidate.path != movie.path, stat(candidate.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
                case .photo = MediaKind(ofFileAt: candidate.path)
            else { continue }
            let identifier = (try? Data(contentsOf: candidate)).flatMap { try? ImageHeaderReader.read($0) }?.contentIdentifier
            if motion(beside: candidate, identifier: identifier)?.url.path == movie.path { return candidate }
        }
        return nil
    }

    /// `paths` without the motions of stills among them; only a path with a movie's extension is looked at.
    static func withoutMotions(_ paths: [String]) -> [String] {
        let movieExtensions = Set(extensions)
        guard paths.contains(where: { movieExtensions.contains(($0 as NSString).pathExtension) }) else { return paths }
        let listed = Set(paths)
        return paths.filter { path in
            guard movieExtensions.contains((path as NSString).pathExtension), let still = still(of: URL(fileURLWithPath: path)) else { return true }
            return !listed.contains(still.path)
        }
    }

    /// Whether a still of `stillIdentifier` and a movie beside it of the same name are one Live Photo.
    static func belong(stillIdentifier: String?, motion: VideoFacts) -> Bool {
        if let still = stillIdentifier, let moving = motion.contentIdentifier { return still == moving }
        return (motion.duration ?? .infinity) <= longestByName
    }

    /// The names among `names` (the files of the folder at `folder`) that
    /// are the motion of a still among them: each is read with its still.
    /// Only a still with a movie of its name beside it is read.
    static func motions(among names: [String], in folder: String) -> Set<String> {
        let movieExtensions = Set(extensions)
        var movieStems = Set<String>()
        for name in names where movieExtensions.contains((name as NSString).pathExtension) {
            let stem = (name as NSString).deletingPathExtension
            movieStems.insert(stem)
            if stem.hasSuffix(applePhotosSuffix) { movieStems.insert(String(stem.dropLast(applePhotosSuffix.count))) }
        }
        guard !movieStems.isEmpty else { return [] }
        var motions = Set<String>()
        for name in names where !movieExtensions.contains((name as NSString).pathExtension) && movieStems.contains((name as NSString).deletingPathExtension) {
            let still = URL(fileURLWithPath: (folder as NSString).appendingPathComponent(name))
            guard case .photo = MediaKind(ofFileAt: still.path) else { continue }
            let identifier = (try? Data(contentsOf: still)).flatMap { try? ImageHeaderReader.read($0) }?.contentIdentifier
            if let motion = motion(beside: still, identifier: identifier) { motions.insert(motion.url.lastPathComponent) }
        }
        return motions
    }
}
