import AlbumsImporting
import AlbumsPersistence
import AlbumsThumbnails
import Foundation
import Hummingbird

/// How the page plays a video: `GET …/playback` says from where (its
/// original, or a rendition every browser plays, or not yet: how far it
/// is), `GET …/rendition` streams the rendition. The organizer's API and a
/// share link's answer alike, under their own paths.
struct VideoPlayback: Sendable {
    let renditions: PlayableRenditions

    private struct PlaybackJSON: Encodable {
        let photoID: Int64
        /// `original`, `rendition`, `preparing`, or `unconverted` (the
        /// original is all there is: its reason says why).
        let state: String
        /// What to play; none while preparing.
        let url: String?
        /// The fraction of the rendition made, while preparing.
        let progress: Double?
        let reason: String?

        /// The JSON keys, in snake_case.
        enum CodingKeys: String, CodingKey {
            case photoID = "photo_id"
            case state, url, progress, reason
        }
    }

    /// `GET …/playback`. `paths` is the photo's path under the API
    /// (`/api/photos/7`), from which the original and the rendition are asked.
    func playbackResponse(for photo: Photo, in library: Library, paths base: String) async throws -> Response {
        guard photo.content.isVideo else {
            return APIError.response(status: .notFound, code: "not_found", message: "photo id:\(photo.id) is a still, not a video: it plays nothing")
        }
        let answer: PlaybackJSON
        switch await renditions.playback(of: photo, from: try Self.source(of: photo, in: library)) {
        case .original:
            answer = PlaybackJSON(photoID: photo.id.rawValue, state: "original", url: base + "/original", progress: nil, reason: nil)
        case .rendition:
            answer = PlaybackJSON(photoID: photo.id.rawValue, state: "rendition", url: base + "/rendition", progress: nil, reason: nil)
        case .preparing(let fraction):
            answer = PlaybackJSON(photoID: photo.id.rawValue, state: "preparing", url: nil, progress: fraction ?? 0, reason: nil)
        case .impossible(let failure):
            answer = PlaybackJSON(photoID: photo.id.rawValue, state: "unconverted", url: base + "/original", progress: nil, reason: failure.description)
        }
        return JSONResponse.make(answer)
    }

    /// `GET …/rendition`: the rendition made, whole or the range asked;
    /// 404 `not_found` while there is none (`…/playback` starts it).
    func renditionResponse(for photo: Photo, _ request: Request, context: some RequestContext) async throws -> Response {
        let file = renditions.renditionFile(of: photo)
        guard photo.content.isVideo, FileManager.default.fileExists(atPath: file.path) else {
            return APIError.response(
                status: .notFound, code: "not_found", message: "photo id:\(photo.id) has no rendition (yet): its playback says how it plays")
        }
        return try await OriginalFiles().renditionResponse(file: file.path, of: photo, request, context: context)
    }

    /// What a rendition is made from: the file of the original (its kept
    /// copy, else its source), or its copy in a bucket, written to a file
    /// as it arrives.
    static func source(of photo: Photo, in library: Library) throws -> RenditionSource {
        let location = try library.originalLocation(of: photo)
        if let path = location.filePath { return .file(path) }
        return .fetched { file in
            let parts = try await library.originalParts(of: photo)
            guard FileManager.default.createFile(atPath: file.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            try await parts.forEach { try handle.write(contentsOf: $0) }
        }
    }
}
