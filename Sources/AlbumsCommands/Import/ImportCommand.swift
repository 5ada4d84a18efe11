import AlbumsImporting
import AlbumsPersistence
import AlbumsTransfer
import AlbumsWire
import ArgumentParser
import Foundation
import Synchronization

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import photo files, through placeholders that hold their slots while they load.",
        discussion: """
            Each file gets a placeholder at the destination at once, before any
            bytes are read; loads run in parallel and each fills its slot when it
            completes, so the order is the order given, whatever finishes first.

            The media type comes from the bytes: photos (JPEG, PNG, GIF, WebP,
            HEIC/HEIF, TIFF) and videos (MP4, MOV, M4V, 3GP, WebM, MKV, AVI,
            MPEG); anything else is skipped with the reason. A photo already in the
            library is reused; one already in the album is reported. A folder's
            files are imported in name order; --recursive descends into subfolders.
            Without --to, --before or --after, photos enter the library alone.

            --tree imports one folder as it is arranged: a folder holding photos
            becomes an album named after it, a folder holding folders becomes a
            folder (with an album of its own photos inside when it holds both),
            each album in name order (or --order capture-date). Importing the
            same tree again finds what it made and adds only what is new, at the
            end of each album. --dry-run prints the tree it would make.

            --from apple-photos|digikam|lightroom|shotwell|takeout CATALOG imports
            another organizer's albums, each in the order it showed (Apple Photos'
            and Lightroom's by the album's own sort, digiKam's by the sort in the
            digikamrc beside the catalog, else by hand, or by --order; Shotwell's
            events newest first; a Google Takeout keeps no order: by capture
            time), reading the catalog without writing it. --map OLD=NEW
            says where its paths lie on this machine; an original not found keeps
            its place as a placeholder until `albums pending resume` finds it.
            Titles, captions, ratings, tags and favourites come along; what is
            not carried (edits, smart albums, shared albums) is counted. The photos in
            no album (a Takeout's year folders, a Photos library's own) come into
            the library in no album; --albums-only leaves them out. What the
            organizer hid or its owner threw away (hidden, trashed, rejected)
            stays out, counted; --with-hidden brings it into a locked album of its
            own ("Hidden in Shotwell"), at the top level, shared with nobody.

            The library refers to the files where they are: it keeps no copy, so
            keep the originals (do not wipe a camera card after importing from it).
            --copy has it keep a verified copy of each file where it keeps its
            originals (`albums storage`; by default a folder beside the library,
            LIBRARY-originals), named by its content: each photo commits once its
            copy is stored, and the card can then be wiped.

            Ctrl-C stops cleanly: finished loads stay, pending placeholders go, and
            running the same import again finishes it (files already in the album
            are reported, not added twice); a second Ctrl-C stops at once, leaving
            placeholders that the same import again, or albums pending resume,
            fills in their slots. An import that died (killed, a crash) is finished
            the same way: run again, it fills its own stale placeholders in place.
            Exit status 0 when every file was imported or knowingly skipped,
            1 when a load failed or was cancelled, 130 when Ctrl-C stopped it.

            Examples:
              albums import ~/Pictures/Rome --to "Rome 2026"
              albums import a.jpg b.heic --to "Photo book" --at 3
              albums import /media/card/DCIM --recursive --to Holidays --copy
              albums import ~/Pictures --recursive --to Everything --jobs 4
              albums import ~/Pictures/Travel --tree --into Family
              albums import --from shotwell ~/.local/share/shotwell/data/photo.db --map /media/old=/media/ana
            """).parsedOnItsOwn

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Files or folders to import.") var paths: [String]
    @Option(help: "The album to import into; alone, the photos go at its end.") var to: String?
    @Option(help: "With --to: the 1-based position of the first photo afterwards.") var at: Int?
    @Option(help: ArgumentHelp("Import just before this item (ALBUM:N).", valueName: "REF")) var before: String?
    @Option(help: ArgumentHelp("Import just after this item (ALBUM:N).", valueName: "REF")) var after: String?
    @Flag(help: "Descend into subfolders.") var recursive = false
    @Flag(help: "Import one folder as folders and albums, as it is arranged on disk.") var tree = false
    @Option(help: ArgumentHelp("With --tree or --from: the folder of the library to import into (default: the top level).", valueName: "FOLDER"))
    var into: String?
    @Option(help: ArgumentHelp(
        "With --tree: the order of each new album: name or capture-date. With a digiKam catalog: instead of the sort digiKam keeps.",
        valueName: "ORDER"))
    var order: TreeImportOrder?
    @Option(help: ArgumentHelp("Import another organizer's catalog, its albums in their order: apple-photos, digikam, lightroom, shotwell or takeout.", valueName: "ORGANIZER"))
    var from: CatalogKind?
    @Option(help: ArgumentHelp("With --from: where the catalog's paths lie here (repeatable).", valueName: "OLD=NEW"))
    var map: [String] = []
    @Option(help: ArgumentHelp("With a Takeout's archives: the folder their albums' photos are extracted into (default: the archives' own).", valueName: "FOLDER"))
    var extractTo: String?
    @Flag(help: ArgumentHelp("With --from: only the albums; the photos in no album (a Takeout's year folders, a Photos library's own) stay out."))
    var albumsOnly = false
    @Flag(help: ArgumentHelp("With --from: also bring what the organizer hid or its owner threw away (hidden, trashed, rejected) into a locked album of its own at the top level, shared with nobody."))
    var withHidden = false
    @Flag(help: ArgumentHelp("With an Apple Photos library: each photo edited in Photos as Photos rendered the edit (turned, cropped, filtered), not its original."))
    var edited = false
    @Flag(help: ArgumentHelp("Keep a copy of each file where the library keeps its originals (albums storage; by default LIBRARY-originals beside it)."))
    var copy = false
    @Option(help: "How many files load at once (default: the number of cores; 1 reads and commits one at a time).") var jobs: Int?
    @OptionGroup var write: WriteOptions

    /// Whether every path names an archive (a Takeout's parts).
    private var pathsAreArchives: Bool { paths.allSatisfy(TakeoutArchives.isArchive) }

    func validate() throws {
        if extractTo != nil && !(pathsAreArchives && (from ?? .takeout) == .takeout) {
            throw ValidationError("--extract-to goes with a Takeout's .zip or .tgz archives")
        }
        if from != nil {
            let archives = from == .takeout && pathsAreArchives
            if paths.count != 1 && !archives { throw ValidationError("--from imports one catalog; give its path") }
            if tree || to != nil || at != nil || before != nil || after != nil || recursive {
                throw ValidationError("--from makes its own albums; use --into FOLDER alone")
            }
            if order != nil && from != .digikam { throw Self.orderRefused }
            if edited && from != .applePhotos { throw Self.editedRefused }
            return
        }
        if albumsOnly && (tree || to != nil || before != nil || after != nil) {
            throw ValidationError("--albums-only goes with a catalog (--from)")
        }
        if withHidden && (tree || to != nil || before != nil || after != nil) {
            throw ValidationError("--with-hidden goes with a catalog (--from): a folder has nothing hidden to bring")
        }
        if !map.isEmpty && (tree || to != nil || before != nil || after != nil || paths.count != 1) {
            throw ValidationError("--map goes with --from, or with one catalog")
        }
        if tree {
            if paths.count != 1 { throw ValidationError("--tree imports one folder; give one path") }
            if to != nil || at != nil || before != nil || after != nil { throw ValidationError("--tree makes its own albums; use --into FOLDER instead of --to, --at, --before or --after") }
            if recursive { throw ValidationError("--tree always descends into folders; drop --recursive") }
        } else if into != nil || order != nil {
            throw ValidationError("--into and --order go with --tree (a folder's tree of albums) or --from (a catalog); --to ALBUM names the album the files go into")
        }
        if at != nil && to == nil { throw ValidationError("--at needs --to ALBUM") }
        if (before != nil || after != nil) && (to != nil || at != nil) { throw ValidationError("--before and --after name the album themselves; drop --to / --at") }
        if before != nil && after != nil { throw ValidationError("give --before or --after, not both") }
        if let at, at < 1 { throw ValidationError("--at \(at): positions start at 1") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs takes a number from 1") }
    }

    func destination() throws -> Destination? {
        if let to { return at.map { .at($0 - 1, in: .named(to)) } ?? .into(.named(to)) }
        if let before { return .before(try single(before)) }
        if let after { return .after(try single(after)) }
        return nil
    }

    private func single(_ text: String) throws -> ItemReference {
        let references = try ReferenceParser.parse(text)
        guard references.count == 1 else { throw ReferenceParser.ParseError(reference: text, reason: "name one item, not a range") }
        return references[0]
    }

    func run() async throws {
        if tree || from != nil { return try await importTree(from) }
        // A catalog given as it is: read as its organizer's, not as a photo.
        if paths.count == 1, to == nil, before == nil, after == nil, !recursive, let kind = CatalogKind.recognize(paths[0]) {
            global.console.note("albums: reading \(paths[0]) as a catalog of \(kind.organizerName), importing its albums (--from \(kind.rawValue))")
            return try await importTree(kind)
        }
        if paths.count > 1, to == nil, before == nil, after == nil, !recursive, paths.allSatisfy({ CatalogKind.recognize($0) == .takeout }) {
            global.console.note("albums: these are a Google Takeout's archives: importing its albums (--from takeout)")
            return try await importTree(.takeout)
        }
        if !map.isEmpty { throw ValidationError("--map goes with a catalog, and \(paths[0]) is not one albums recognizes; name its kind with --from") }
        if withHidden { throw ValidationError("--with-hidden goes with a catalog, and \(paths[0]) is not one albums recognizes; name its kind with --from") }
        if edited { throw Self.editedRefused }
        let destination = try destination()
        // A bare --expect-revision R is about the destination album, checked
        // in the transaction that inserts the placeholders.
        let expected = try write.revisions(target: destination?.album)
        var sources = ImportSources.expand(paths, recursive: recursive)
        // The CLI's words after the fact: how to have the folders' files too.
        sources.skipped = sources.skipped.map { skipped in
            (skipped.path, skipped.reason == ImportSources.folderNotEntered ? skipped.reason + "; --recursive imports its files" : skipped.reason)
        }
        let library = try global.openLibrary(for: write.dryRun ? .reading : .creating)
        let session = TransferSession(library: library)
        let target = try destination.map { try LoadRunner(session: session).checkDestination($0, expecting: expected) }
        // Chosen only for an import that can happen: a refused one leaves the library as it was.
        let keeper = copy && !write.dryRun ? try library.keeperForCopies() : nil
        let runner = LoadRunner(session: session, keeper: keeper, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        let album = target?.album.name
        if write.dryRun {
            let place = target.map { " into \(LibraryError.quoted($0.album.name)) at position \($0.index + 1)" } ?? " into the library"
            if global.json {
                try global.console.result(json: ImportPlanJSON(
                    album: album, position: target.map { $0.index + 1 }, files: sources.files,
                    skipped: sources.skipped.map { .init(source: $0.path, reason: $0.reason) },
                    failed: sources.failed.map { .init(source: $0.path, reason: $0.reason) }))
            } else {
                global.console.result("would import \(sources.files.count) file\(sources.files.count == 1 ? "" : "s")\(place)")
                for file in sources.files { global.console.result("  \(file)") }
                for skipped in sources.skipped { global.console.result("  skipped  \(skipped.path): \(skipped.reason)") }
                for failed in sources.failed { global.console.note("  failed   \(failed.path): \(failed.reason)") }
                if copy { global.console.note("  would keep a copy of each in \(try copiesPlace(of: library))") }
            }
            if !sources.failed.isEmpty { throw ExitCode(ExitStatus.refused) }
            return
        }
        let files = sources.files
        let loads = LoadSession(library: library, console: global.console)
        var report = try await loads.run { progress in
            if let destination {
                try await runner.load(files, at: destination, expecting: expected, progress: progress)
            } else {
                await runner.loadIntoLibrary(files, progress: progress)
            }
        }
        report.add(skipped: sources.skipped, failed: sources.failed)
        if let keeper { global.console.note("albums: each photo's copy is kept in \(keeper.place)") }
        try loads.print(report, album: album, verb: "imported")
    }

    /// Where `--copy` keeps copies: the library's place, or the folder it would choose.
    private func copiesPlace(of library: Library) throws -> String {
        try library.read { try $0.currentStoragePlace() }?.description ?? "folder \(library.defaultOriginalsFolder)"
    }
}

extension ImportCommand {
    /// `--tree` and `--from`: the folder or catalog read, planned against the library, then made and loaded.
    private func importTree(_ kind: CatalogKind?) async throws {
        var archives = kind == .takeout && pathsAreArchives ? try readArchives() : nil
        archives?.includesLoose = !albumsOnly
        if let kind, kind != .digikam, order != nil { throw Self.orderRefused }
        if edited && kind != .applePhotos { throw Self.editedRefused }
        var catalog = try archives?.catalog ?? kind.map { kind in try kind.read(paths[0], map: try PathMap(map), order: order, edited: edited) }
        var root = try catalog?.root ?? SourceFolder.read(paths[0])
        let source = catalog?.source ?? "tree"
        let (library, finished) = write.dryRun ? try global.openLibraryToPlan() : (try global.openLibrary(for: .creating), {})
        defer { finished() }
        let session = TransferSession(library: library)
        let loader = catalog?.loader() ?? FileLoader()
        let keeper = copy && !write.dryRun ? try library.keeperForCopies() : nil
        let importer = TreeImport(
            runner: LoadRunner(session: session, loader: loader, keeper: keeper, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount))
        let destination = into.map(FolderReference.path)
        let output = TreeImportOutput(console: global.console, catalog: catalog)
        if write.dryRun {
            // An archive's photos are not missing: they are in the archive, to be extracted.
            try output.print(try importer.plan(root, from: source, into: destination), report: nil, missing: archives == nil ? root.photosNotFound() : [])
            if copy { global.console.note("  would keep a copy of each in \(try copiesPlace(of: library))") }
            if let archives {
                global.console.note("  would extract \(LibraryError.counted(archives.photoCount, "photo")) into \(archives.extractedFolder)")
            }
            if !albumsOnly, let catalog, !catalog.loose.isEmpty {
                global.console.note("  would bring \(LibraryError.counted(catalog.loose.count, "photo")) in no album into the library, in no album")
            }
            if withHidden, let catalog, !catalog.setAside.isEmpty {
                global.console.note(
                    "  would set aside \(LibraryError.counted(catalog.setAside.count, "photo")) \(catalog.kind.organizerName) hid or threw away "
                        + "in locked album \(LibraryError.quoted(SetAsideImport.albumName(for: catalog.kind)))")
            }
            return
        }
        if let archives {
            try extract(archives)
            // Extracted, a Live Photo's motion is known by its bytes: it comes with its still, not as an item.
            catalog = catalog?.leavingOutMotions()
            root = catalog?.root ?? root
        }
        let outcome = Mutex<(plan: TreeImportPlan, missing: Set<String>)?>(nil)
        let loads = LoadSession(library: library, console: global.console)
        let report = try await loads.run { [root] progress in
            // A catalog's order is its reader's; --order sorts a folder tree's albums once they are loaded.
            let result = try await importer.run(root, from: source, into: destination, order: kind == nil ? order ?? .name : .name, progress: progress)
            outcome.withLock { $0 = (result.plan, result.missing) }
            return result.report
        }
        let (plan, missing) = outcome.withLock { $0! }
        if let keeper { global.console.note("albums: each photo's copy is kept in \(keeper.place)") }
        try output.print(plan, report: report, missing: missing)
        if !albumsOnly, let catalog, !catalog.loose.isEmpty {
            let loose = await catalog.loadLoose(with: importer.runner)
            let reused = loose.committed.filter { !$0.isNewPhoto }.count
            global.console.note(
                "albums: \(LibraryError.counted(loose.committed.count, "photo")) in no album in \(catalog.kind.organizerName) came into the library, in no album"
                    + (reused == 0 ? "" : " (\(reused) there already)") + (loose.failed.isEmpty ? "" : "; \(LibraryError.counted(loose.failed.count, "file")) not found")
                    + "; --albums-only leaves them out")
            try loads.finish(loose)
        }
        if withHidden, let catalog, let (album, hidden) = try await SetAsideImport.run(catalog, runner: importer.runner) {
            global.console.note(
                "albums: \(LibraryError.counted(hidden.committed.count, "photo")) \(catalog.kind.organizerName) hid or threw away set aside in "
                    + "locked album \(LibraryError.quoted(album.name)), at the top level, shared with nobody"
                    + (hidden.alreadyInAlbum.isEmpty ? "" : " (\(hidden.alreadyInAlbum.count) there already)")
                    + (hidden.failed.isEmpty ? "" : "; \(LibraryError.counted(hidden.failed.count, "file")) not found"))
            try loads.finish(hidden)
        }
        try loads.finish(report)
    }
}

extension ImportCommand {
    /// A Takeout's archives, read (not yet extracted).
    private func readArchives() throws -> TakeoutArchiveImport {
        let archives = try TakeoutArchives(paths)
        if archives.archives.count > paths.count {
            global.console.note("albums: reading every part of the export: \(archives.archives.map { ($0 as NSString).lastPathComponent }.joined(separator: ", "))")
        }
        return try archives.read(extractingInto: extractTo ?? archives.defaultExtractionFolder)
    }

    /// Extracts the albums' photos from a Takeout's archives, saying where.
    private func extract(_ archives: TakeoutArchiveImport) throws {
        let console = global.console
        let extraction = try archives.extract { done, total in console.progress("extracting \(done)/\(total)") }
        console.endProgress()
        if extraction.extracted == 0 {
            console.note("albums: the albums' photos are already extracted in \(archives.extractedFolder)")
        } else {
            var line = "albums: extracted \(LibraryError.counted(extraction.extracted, "photo")) into \(archives.extractedFolder)"
            if extraction.alreadyThere > 0 { line += " (\(extraction.alreadyThere) already there)" }
            console.note(line)
        }
    }
}

extension TreeImportOrder: ExpressibleByArgument {}

extension ImportCommand {
    /// --order given with a catalog that keeps its own order.
    static let orderRefused = ValidationError(
        "--order goes with --tree, or with a digiKam catalog (whose sort is the app's setting); other catalogs keep their own order")
    /// --edited given with anything but an Apple Photos library.
    static let editedRefused = ValidationError("--edited goes with an Apple Photos library, which keeps its edits rendered; others keep only the originals")
}

extension CatalogKind: ExpressibleByArgument {}

/// What an import's dry run would do, as JSON.
struct ImportPlanJSON: Encodable {
    @KeptNull var album: String?
    var dryRun = true
    /// Where the first photo would stand (1-based); null into the library alone.
    @KeptNull var position: Int?
    let files: [String]
    let skipped: [LoadReportJSON.Problem]
    let failed: [LoadReportJSON.Problem]
}
