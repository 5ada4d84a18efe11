import AlbumsTransfer
import Testing

/// Each album and folder operation's name is spelled once, and the batch
/// format, the operations and the names agree.
@Suite("Tree operations' names")
struct TreeOperationNameTests {
    /// A line of each operation with the values its keys need.
    static func line(_ name: TreeOperationName) -> String {
        let values: [String: String] = [
            "name": #""New""#, "album": #""Trip""#, "folder": #""Travel""#, "into": #""Travel""#, "by": #""capture-date""#,
            "search": #"{"shape": "portrait"}"#, "description": #""About""#,
        ]
        let required: [String] = switch name {
        case .createAlbum, .createFolder: ["name"]
        case .renameAlbum: ["album", "name"]
        case .renameFolder: ["folder", "name"]
        case .moveAlbum: ["album", "into"]
        case .moveFolder: ["folder", "into"]
        case .sortAlbum: ["album", "by"]
        case .deleteAlbum, .lockAlbum, .unlockAlbum, .setAlbumCover, .freezeAlbum: ["album"]
        case .createSmartAlbum: ["name", "search"]
        case .describeAlbum: ["album", "description"]
        case .deleteFolder, .lockFolder, .unlockFolder: ["folder"]
        }
        return "{" + ([#""op": "\#(name.rawValue)""#] + required.map { #""\#($0)": \#(values[$0]!)"# }).joined(separator: ", ") + "}"
    }

    @Test("a batch line of each name reads as the operation of that name, album or folder as the name says", arguments: TreeOperationName.allCases)
    func roundTrip(_ name: TreeOperationName) throws {
        let operation = try #require(try TransferBatchFormat.operations(fromJSONLines: Self.line(name)).first)
        switch operation {
        case .album(let album, _):
            #expect(!name.isFolderOperation && album.operationName == name && album.name == name.rawValue)
        case .folder(let folder, _):
            #expect(name.isFolderOperation && folder.operationName == name && folder.name == name.rawValue)
        case .items, .mark:
            Issue.record("\(name.rawValue) read as an item operation")
        }
    }

    @Test("a key the operation does not take is refused, naming the keys it takes", arguments: TreeOperationName.allCases)
    func unknownKey(_ name: TreeOperationName) {
        let line = String(Self.line(name).dropLast()) + #", "items": []}"#
        #expect(throws: TransferBatchFormat.FormatError.self) { try TransferBatchFormat.operations(fromJSONLines: line) }
    }
}
