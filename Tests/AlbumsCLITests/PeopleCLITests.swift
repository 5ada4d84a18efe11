import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import Testing

/// `albums user`, `share` and `link`, run as the server's owner runs them.
@Suite("People, roles and share links from the command line")
struct PeopleCLITests {
    @Test("people are added with a password from standard input, listed with their roles, disabled, enabled and removed")
    func people() throws {
        let cli = try CLI()
        try cli.run("album", "create", "Wedding")
        #expect(try cli.run("user", "list").stdout.hasPrefix("no people"))
        let added = try cli.run(input: "correct horse\n", "user", "add", "ana", "--admin")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "added admin ana: albums serve now asks for a sign-in\n")
        #expect(try cli.run(input: "grandma's pass\n", "user", "add", "gran").status == 0)
        #expect(try cli.run("share", "add", "Wedding", "--with", "gran", "--role", "viewer").stdout == "gran is now viewer of album 'Wedding'\n")
        let list = try cli.run("user", "list").stdout.split(separator: "\n").map(String.init)
        #expect(list == ["NAME  ADMIN  STATE  ROLES", "ana   admin         everything", "gran                viewer of album 'Wedding'"])

        // The password is never an argument, and the file keeps only its hash.
        let refused = try cli.run(input: "short\n", "user", "add", "bob")
        #expect(refused.status == 1 && refused.stderr == "albums: the password cannot be used: it needs at least 8 characters\n")
        let taken = try cli.run(input: "correct horse\n", "user", "add", "ANA")
        #expect(taken.status == 1 && taken.stderr.contains("exists already"))
        let badName = try cli.run(input: "correct horse\n", "user", "add", "a b")
        #expect(badName.status == 1 && badName.stderr.contains("cannot name a person"))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: cli.libraryPath))
        #expect(bytes.range(of: Data("correct horse".utf8)) == nil)
        #expect(try cli.library().read { try $0.person(named: "ana", password: "correct horse") }?.isAdmin == true)

        #expect(try cli.run("user", "disable", "gran").status == 0)
        #expect(try cli.library().read { try $0.person(named: "gran", password: "grandma's pass") } == nil)
        #expect(try cli.run("user", "enable", "gran").status == 0)
        #expect(try cli.run(input: "a new password\n", "user", "passwd", "gran").status == 0)
        #expect(try cli.library().read { try $0.person(named: "gran", password: "a new password") }?.name == "gran")
        #expect(try cli.run("share", "remove", "Wedding", "--with", "gran").status == 0)
        #expect(try cli.run("share", "list").stdout.hasPrefix("nothing is shared"))
        #expect(try cli.run("user", "remove", "gran").stdout == "removed gran\n")
        let missing = try cli.run("user", "remove", "gran")
        #expect(missing.status == 1 && missing.stderr == "albums: no person is named 'gran'; albums user list lists them\n")
        let json = try JSONSerialization.jsonObject(with: Data(try cli.run("--json", "user", "list").stdout.utf8)) as? [String: Any]
        #expect((json?["people"] as? [[String: Any]])?.map { $0["name"] as? String } == ["ana"])
    }

    @Test("a share link is printed once, listed without its token, and revoked")
    func links() throws {
        let cli = try CLI()
        try cli.run("album", "create", "Wedding")
        let made = try cli.run("link", "create", "Wedding", "--expires", "7d")
        #expect(made.status == 0, "\(made.stderr)")
        let path = made.stdout.trimmingCharacters(in: .newlines)
        #expect(path.hasPrefix("/s/") && path.count == 46)
        let token = String(path.dropFirst(3))
        let list = try cli.run("link", "list").stdout
        #expect(list.contains("Wedding") && list.contains("live") && !list.contains(token))
        guard case .granted = try cli.library().read({ try $0.shareLink(token: token, password: nil) }) else {
            Issue.record("the link printed does not open its album")
            return
        }
        #expect(try cli.run("link", "revoke", "1").stdout == "revoked link 1\n")
        guard case .none = try cli.library().read({ try $0.shareLink(token: token, password: nil) }) else {
            Issue.record("a revoked link still opens its album")
            return
        }
        let again = try cli.run("link", "revoke", "1")
        #expect(again.status == 1 && again.stderr.contains("no share link has id 1"))
        let bad = try cli.run("link", "create", "Wedding", "--expires", "soon")
        #expect(bad.status == 64)
        let protected = try cli.run(input: "open sesame\n", "link", "create", "Wedding", "--password", "--no-download")
        #expect(protected.status == 0)
        #expect(try cli.run("link", "list").stdout.contains("yes       no"))
        // A smart album shows each reader their own search, so a link to it would show nothing: freeze it first.
        #expect(try cli.run("album", "smart", "July", "--taken", "2026-07").status == 0)
        let smart = try cli.run("link", "create", "July")
        #expect(smart.status == 1 && smart.stdout.isEmpty, "\(smart.stderr)")
        #expect(smart.stderr.hasPrefix("albums: album 'July' is a smart album: it shows each person what they may see, so a link would show nothing"))
        #expect(smart.stderr.contains("albums album freeze July makes an ordinary album of it"), "\(smart.stderr)")
        #expect(try cli.run("album", "freeze", "July").status == 0)
        #expect(try cli.run("link", "create", "July").status == 0)
    }

    @Test("the history names who made each change")
    func historyNames() throws {
        let cli = try CLI()
        try cli.run("album", "create", "Wedding")
        let history = try cli.run("history").stdout.split(separator: "\n").map(String.init)
        #expect(history.first?.hasPrefix("#  WHEN") == true)
        #expect(history.dropFirst().first?.contains("  cli  ") == true, "\(history)")
    }
}
