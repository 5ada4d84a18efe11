import AlbumsTestSupport
import Foundation
import Testing

/// `albums import --from takeout Takeout`: album folders by their titles,
/// photos matched with their sidecars (truncated and numbered names too),
/// in capture-time order, which the report says was inferred.
@Suite("import --from takeout", .serialized)
struct TakeoutImportCLITests {
    func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// A sidecar as Takeout writes one: the file's title and when it was taken, `minutes` after 2024-07-14 12:00 UTC.
    func sidecar(_ title: String, minutes: Int, at path: String) throws {
        try write(#"{"title": "\#(title)", "photoTakenTime": {"timestamp": "\#(1_720_958_400 + minutes * 60)", "formatted": "14 Jul 2024"}}"#, to: path)
    }

    func files(_ cli: CLI, _ album: String) throws -> [String?] {
        (try cli.json(try cli.run("--json", "list", album))["items"] as? [[String: Any]] ?? []).map { $0["file"] as? String }
    }

    @Test("album folders by their titles, in the capture-time order of their sidecars, whatever names Takeout gave the sidecars")
    func sidecarsAndOrder() throws {
        let cli = try CLI()
        let photos = cli.folder.path("Takeout/Google Photos")
        let album = photos + "/Sommer in Rom"
        let long = "a_very_long_file_name_that_google_truncates_2024.webp"
        try write(#"{"title": "Sommer in Rom ☀️", "date": {"timestamp": "1720958400"}}"#, to: album + "/metadata.json")
        try cli.copyExample("01-harbour.jpg", to: album + "/IMG_0002.jpg")
        try sidecar("IMG_0002.jpg", minutes: 30, at: album + "/IMG_0002.jpg.json")
        try cli.copyExample("02-market.png", to: album + "/IMG_0001.png")
        try sidecar("IMG_0001.png", minutes: 60, at: album + "/IMG_0001.png.supplemental-metadata.json")
        try cli.copyExample("03-cliffs.webp", to: album + "/" + long)
        try sidecar(long, minutes: 0, at: album + "/" + String(long.prefix(46)) + ".json")
        try cli.copyExample("11-forest.jpg", to: album + "/IMG_0003(1).jpg")
        try sidecar("IMG_0003.jpg", minutes: 90, at: album + "/IMG_0003.jpg(1).json")
        try cli.copyExample("10-meadow.webp", to: album + "/Wiese.webp")  // the file records no capture date
        try sidecar("Wiese.webp", minutes: 10, at: album + "/renamed-by-takeout.json")
        try write("not a photo", to: album + "/clip.mp4")
        try cli.copyExample("06-map.gif", to: photos + "/Ohne Titel/Karte.gif")
        try cli.copyExample("01-harbour.jpg", to: photos + "/Photos from 2024/IMG_0002.jpg")
        try cli.copyExample("04-lighthouse.webp", to: photos + "/Photos from 2024/Leuchtturm.webp")

        let result = try cli.run("import", "--from", "takeout", cli.folder.path("Takeout"))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try files(cli, "Sommer in Rom ☀️") == [long, "Wiese.webp", "IMG_0002.jpg", "IMG_0001.png", "IMG_0003(1).jpg"])
        #expect(try files(cli, "Ohne Titel") == ["Karte.gif"])
        #expect(result.stdout.contains("the catalog keeps no order: each album is in capture-time order"), "\(result.stdout)")
        #expect(result.stdout.contains("not carried: 1 photos in no album, 1 videos and other files"), "\(result.stdout)")
        // The sidecar's time where the file has none; the file's own where it has one.
        #expect(try cli.run("show", "Sommer in Rom ☀️:2").stdout.contains("captured   2024-07-14T12:10:00+00:00"))
        #expect(try cli.run("show", "Sommer in Rom ☀️:3").stdout.contains("captured   2026-07-14T09:12:00+02:00"))
        #expect(try cli.run("import", "--from", "takeout", cli.folder.path("Takeout")).stdout.hasPrefix("nothing new"))
    }

    @Test("a folder that is not a Takeout is refused with one line")
    func refused() throws {
        let cli = try CLI()
        try FileManager.default.createDirectory(atPath: cli.folder.path("Pictures"), withIntermediateDirectories: true)
        let refused = try cli.run("import", "--from", "takeout", cli.folder.path("Pictures"))
        #expect(refused.status == 1 && refused.stderr.contains("is not a Google Takeout catalog: it has no 'Google Photos' folder"), "\(refused.stderr)")
    }
}
