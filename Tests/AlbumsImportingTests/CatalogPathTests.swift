import AlbumsTransfer
import Foundation
import Testing

@testable import AlbumsImporting

/// Where another organizer's originals lie on this machine: digiKam's
/// volumes, a path map's Windows prefixes, a placeholder's file found again.
@Suite("Catalog paths")
struct CatalogPathTests {
    /// A machine with /home on its own partition and a USB disk whose label has a space.
    let volumes = MountedVolumes(
        mounts: """
            /dev/sda1 / ext4 rw,relatime 0 0
            /dev/sda2 /home ext4 rw,relatime 0 0
            /dev/sdb1 /media/ana/USB\\040Disk vfat rw 0 0
            /dev/sda2 /srv/bound ext4 rw 0 0
            """,
        devicesByUUID: ["1111-ROOT": "/dev/sda1", "2222-home": "/dev/sda2", "3333-USB": "/dev/sdb1"])

    @Test("a digiKam root's path: on its volume by UUID (the first mount), by mount path, on a network share; as written when the volume is away")
    func digikamRoots() {
        func root(_ identifier: String?, _ specific: String) -> String {
            DigikamCatalog.rootPath(identifier: identifier, specificPath: specific, volumes: volumes)
        }
        #expect(root("volumeid:?uuid=2222-HOME", "/ana/Pictures") == "/home/ana/Pictures", "a separate /home: the path is from its mount point")
        #expect(root("volumeid:?uuid=1111-root", "/data/Photos") == "/data/Photos")
        #expect(root("volumeid:?uuid=3333-usb&fileuuid=abc", "/DCIM") == "/media/ana/USB Disk/DCIM")
        #expect(root("volumeid:?uuid=9999-gone", "/Pictures") == "/Pictures", "not mounted: as written, for a map to place")
        #expect(root("volumeid:?path=%2Fhome%2Fjames%2FImportant%2FPhotos", "/") == "/home/james/Important/Photos")
        #expect(root("volumeid:?path=P:", "/Fotos") == "P:/Fotos", "a Windows drive")
        #expect(root("networkshareid:?mountpath=%2Fnowhere&mountpath=%2Ftmp", "/") == "/tmp", "the first mount path that is there")
        #expect(root("networkshareid:?mountpath=%2Fnowhere", "/Bilder") == "/nowhere/Bilder")
        #expect(root(nil, "/Pictures") == "/Pictures")
    }

    @Test("a path map's Windows prefix matches in any case and either slash; a POSIX one exactly, as a whole folder")
    func pathMap() throws {
        let map = try PathMap(["d:\\fotos=/media/ana/Fotos", "/Volumes/Photos=/media/ana/Photos"])
        #expect(map.local("D:/Fotos/2024/a.jpg") == "/media/ana/Fotos/2024/a.jpg")
        #expect(map.local("D:\\FOTOS\\2024\\a.jpg") == "/media/ana/Fotos/2024/a.jpg")
        #expect(map.local("D:/Fotos2/a.jpg") == "D:/Fotos2/a.jpg")
        #expect(map.local("/volumes/photos/a.jpg") == "/volumes/photos/a.jpg", "a POSIX path keeps its case")
        #expect(map.local("/Volumes/Photos/a.jpg") == "/media/ana/Photos/a.jpg")
    }

    @Test("a placeholder's file found again: the same name with the most folders above it alike, one candidate each")
    func sameFiles() {
        let found = TreeImportPlan.sameFiles(
            ["D:\\Fotos\\2024\\Rom\\a.jpg", "D:/Fotos/2023/Rom/a.jpg", "D:/Fotos/x/b.jpg", "/old/c.jpg"],
            among: ["/m/Fotos/2023/Rom/a.jpg", "/m/Fotos/2024/Rom/a.jpg", "/m/y/b.jpg", "/m/z/b.jpg", "/m/d.jpg"])
        #expect(found["D:\\Fotos\\2024\\Rom\\a.jpg"] == "/m/Fotos/2024/Rom/a.jpg")
        #expect(found["D:/Fotos/2023/Rom/a.jpg"] == "/m/Fotos/2023/Rom/a.jpg")
        #expect(found["D:/Fotos/x/b.jpg"] == nil, "two b.jpg alike as far: neither is taken")
        #expect(found["/old/c.jpg"] == nil)
    }
}
