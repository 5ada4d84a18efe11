import AlbumsImageFacts
import AlbumsPersistence
import AlbumsTransfer
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where files sent to a library over the network (the page's file drop)
/// are kept: a folder beside the library file, `NAME.albums.uploads/DAY/`.
///
/// A photo in albums is a record of a file somewhere; a file that arrived
/// as bytes needs a home before it can be one. Beside the library, the
/// two move, back up and relink together.
///
/// Files are written whole before anything reads them, each under its
/// sender's name made safe (no folders, no hidden or control characters),
/// with ` (2)`, ` (3)`, … when the day's folder already holds that name.
struct UploadInbox: Sendable {
    /// The inbox folder.
    let folder: URL
    /// The largest photo accepted, in bytes.
    let maximumFileSize: Int64
    /// The largest video accepted, in bytes: a phone's minute of 4K is
    /// hundreds of megabytes. Known by the file's first bytes, as it arrives.
    let maximumVideoSize: Int64
    /// The most pixels a sent photo may declare. A few kilobytes can
    /// declare billions (a decompression bomb), and every thumbnail would
    /// decode them all; 250 megapixels is more than any camera's sensor
    /// (and a 16k × 16k panorama) makes.
    let maximumPixelCount: Int

    /// The inbox of the library at `libraryPath`.
    init(libraryPath: String, maximumFileSize: Int64 = 256 << 20, maximumVideoSize: Int64 = Int64(RequestParts.maximumUploadSize), maximumPixelCount: Int = 250_000_000) {
        folder = URL(fileURLWithPath: libraryPath + ".uploads", isDirectory: true)
        self.maximumFileSize = maximumFileSize
        self.maximumVideoSize = maximumVideoSize
        self.maximumPixelCount = maximumPixelCount
    }

    /// Why a sent file is not taken.
    enum Refusal: Error, Equatable, CustomStringConvertible {
        case tooLarge(name: String, limit: Int64)
        case notAnImage(name: String, detail: String)
        /// The photo declares more pixels than the inbox takes.
        case tooManyPixels(name: String, width: Int, height: Int, limit: Int)
        case cannotWrite(detail: String)

        var code: String {
            switch self {
            case .tooLarge: "file_too_large"
            case .tooManyPixels: "too_many_pixels"
            case .notAnImage: "not_an_image"
            case .cannotWrite: "io_failure"
            }
        }

        var description: String {
            switch self {
            case .tooLarge(let name, let limit): "\(name) is larger than \(limit >> 20) MiB, the most one upload may be"
            case .notAnImage(let name, let detail): "\(name) is not a photo or video albums reads: \(detail)"
            case .tooManyPixels(let name, let width, let height, let limit):
                "\(name) declares \(width) × \(height) pixels, more than the \(limit / 1_000_000) megapixels an upload may have"
            case .cannotWrite(let detail): "cannot keep the uploaded file: \(detail)"
            }
        }
    }

    /// A file being received: bytes are appended, then it is finished
    /// (kept) or abandoned (deleted).
    final class IncomingFile {
        /// The name it is kept under (the sender's, made safe).
        let name: String
        /// Where it is kept.
        let path: String
        /// The sender's name, for messages.
        let sentName: String
        private var limit: Int64
        private let videoLimit: Int64
        private let pixelLimit: Int
        private var descriptor: Int32
        private(set) var byteCount: Int64 = 0
        /// The first bytes, until there are enough to say whether a video is coming (and the larger limit holds).
        private var prefix: Data? = Data()

        init(path: String, name: String, sentName: String, descriptor: Int32, limit: Int64, videoLimit: Int64, pixelLimit: Int) {
            self.path = path
            self.name = name
            self.sentName = sentName
            self.descriptor = descriptor
            self.limit = limit
            self.videoLimit = videoLimit
            self.pixelLimit = pixelLimit
        }

        deinit {
            if descriptor >= 0 { close(descriptor) }
        }

        /// Appends bytes; refuses past the size limit.
        func append(_ bytes: UnsafeRawBufferPointer) throws(Refusal) {
            if var first = prefix {
                // Sixteen bytes tell a container (an ftyp box's brand, EBML, RIFF's AVI).
                first.append(contentsOf: bytes.prefix(16 - first.count))
                if first.count >= 16 {
                    if case .video = MediaKind(prefix: first, name: name) { limit = max(limit, videoLimit) }
                    prefix = nil
                } else {
                    prefix = first
                }
            }
            guard byteCount + Int64(bytes.count) <= limit else { throw .tooLarge(name: sentName, limit: limit) }
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw .cannotWrite(detail: String(cString: strerror(errno)))
                }
                offset += written
            }
            byteCount += Int64(bytes.count)
        }

        /// Flushes the file to disk and checks it is a photo albums reads,
        /// of at most the inbox's pixel count.
        func finish() throws(Refusal) {
            defer {
                close(descriptor)
                descriptor = -1
            }
            guard fsync(descriptor) == 0 else { throw .cannotWrite(detail: String(cString: strerror(errno))) }
            if case .video = MediaKind(ofFileAt: path) {
                // A video is read in place, never whole: its container must say what it is.
                let facts: VideoFacts
                do {
                    facts = try VideoHeaderReader.read(fileAt: path)
                } catch {
                    throw .notAnImage(name: sentName, detail: error.description)
                }
                try checkPixels(width: facts.pixelWidth, height: facts.pixelHeight)
                return
            }
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw .cannotWrite(detail: LibraryError.describeFileError(error))
            }
            // Sniffed as an import sniffs: by its bytes, never its name.
            let facts: ImageFacts
            do {
                facts = try ImageHeaderReader.read(data)
            } catch .notAnImage(let detail) {
                throw .notAnImage(name: sentName, detail: detail)
            } catch {
                throw .notAnImage(name: sentName, detail: error.description)
            }
            try checkPixels(width: facts.pixelWidth, height: facts.pixelHeight)
        }

        /// Refuses a picture of more pixels than the inbox takes.
        private func checkPixels(width: Int?, height: Int?) throws(Refusal) {
            guard let width, let height else { return }
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            guard overflow || pixels > pixelLimit else { return }
            throw .tooManyPixels(name: sentName, width: width, height: height, limit: pixelLimit)
        }

        /// Deletes what was received.
        func abandon() {
            if descriptor >= 0 {
                close(descriptor)
                descriptor = -1
            }
            unlink(path)
        }
    }

    /// Starts receiving a file the sender calls `sentName`, in today's folder.
    func receive(sentName: String, on day: Date = Date()) throws(Refusal) -> IncomingFile {
        let dayFolder = folder.appending(path: Self.dayName(day), directoryHint: .isDirectory)
        do {
            try FileManager.default.createDirectory(at: dayFolder, withIntermediateDirectories: true)
        } catch {
            throw .cannotWrite(detail: LibraryError.describeFileError(error))
        }
        let safe = Self.safeName(sentName)
        let (stem, dotExtension) = Self.split(safe)
        for attempt in 1...10_000 {
            let name = attempt == 1 ? safe : "\(stem) (\(attempt))\(dotExtension)"
            let path = dayFolder.appending(path: name, directoryHint: .notDirectory).path
            // Exclusive creation: two uploads of one name never share a file.
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if descriptor >= 0 {
                return IncomingFile(path: path, name: name, sentName: sentName, descriptor: descriptor, limit: maximumFileSize, videoLimit: maximumVideoSize, pixelLimit: maximumPixelCount)
            }
            if errno != EEXIST { throw .cannotWrite(detail: String(cString: strerror(errno))) }
        }
        throw .cannotWrite(detail: "too many files named \(safe) today")
    }

    /// A name that is one plain file name: the last path component, NFC,
    /// without control or bidi characters, not hidden, at most 200 bytes.
    static func safeName(_ sent: String) -> String {
        let last = sent.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var name = String(String.UnicodeScalarView(last.precomposedStringWithCanonicalMapping.unicodeScalars.filter { scalar in
            !(scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format)
        }))
        name = name.trimmingCharacters(in: .whitespaces)
        while name.hasPrefix(".") { name.removeFirst() }
        while name.utf8.count > 200 { name.removeFirst() }
        return name.isEmpty ? "photo" : name
    }

    private static func split(_ name: String) -> (stem: String, dotExtension: String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[dot...]))
    }

    private static func dayName(_ day: Date) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: .current, from: day)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
