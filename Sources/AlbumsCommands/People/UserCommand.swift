import AlbumsPersistence
import AlbumsTransfer
import AlbumsWire
import ArgumentParser
import Foundation

struct UserCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Manage the people who sign in to albums serve.",
        discussion: """
            Once a library has a person, albums serve asks for a sign-in, and each person sees
            and changes only what their roles give them (albums share). An admin holds every
            right. The CLI holds the file and is never asked: it is how the server's owner
            recovers access (albums user passwd, albums user enable).

            Passwords are read from the terminal without echo, or as the first line of standard
            input, never from the command line. The file keeps only their bcrypt hashes.
            """,
        subcommands: [Add.self, Passwd.self, List.self, Disable.self, Enable.self, Remove.self]).parsedOnItsOwn

    static func report(_ person: Person, _ global: GlobalOptions, _ words: String) throws {
        if global.json { try global.console.result(json: ["person": PersonJSON(person)]) } else { global.console.result(words) }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add a person; asks for their password.",
            discussion: """
                Names hold letters, digits and . _ - @ (1–64), unique without regard to case;
                passwords need at least 8 characters.

                Examples:
                  albums user add ana --admin
                  printf '%s\\n' "$PASSWORD" | albums user add grandma
                """).parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The person's name.") var name: String
        @Flag(help: "Give them every right on every album and folder.") var admin = false

        func run() throws {
            if let problem = Person.problem(withName: name) { throw LibraryError.invalidPersonName(name, reason: problem) }
            let library = try global.openLibrary(for: .creating)
            if try library.read({ try? $0.person(named: name) }) != nil { throw LibraryError.personNameTaken(name) }
            let hash = try PasswordPrompt.hash(for: name)
            let person = try library.write { try $0.addPerson(named: name, password: hash, isAdmin: admin) }
            try UserCommand.report(person, global, "added \(admin ? "admin " : "")\(person.name): albums serve now asks for a sign-in")
        }
    }

    struct Passwd: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "passwd", abstract: "Give a person a new password; their sessions end.",
            discussion: "Example: albums user passwd ana").parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The person's name.") var name: String

        func run() throws {
            let library = try global.openLibrary(for: .writing)
            let person = try library.read { try $0.person(named: name) }
            let hash = try PasswordPrompt.hash(for: person.name)
            try library.write { try $0.setPassword(of: name, to: hash) }
            try UserCommand.report(person, global, "new password for \(person.name); their sessions have ended")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the people, with their roles.",
            discussion: """
                --json prints {"people": [{"id", "name", "admin", "disabled", "created_at"}]}.

                Example: albums user list
                """).parsedOnItsOwn

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let (people, grants) = try global.openLibrary(for: .reading).read { reader in
                (try reader.people(), try ShareCommand.describedGrants(reader))
            }
            if global.json {
                try global.console.result(json: ["people": people.map(PersonJSON.init)])
                return
            }
            if people.isEmpty {
                global.console.result("no people: albums serve uses its token (albums user add NAME to ask for sign-ins)")
                return
            }
            let rows = people.map { person in
                [
                    person.name, person.isAdmin ? "admin" : "", person.isDisabled ? "disabled" : "",
                    person.isAdmin ? "everything" : (grants[person.id] ?? []).joined(separator: ", "),
                ]
            }
            for line in Table(header: ["NAME", "ADMIN", "STATE", "ROLES"], rows: rows).lines { global.console.result(line) }
        }
    }

    struct Disable: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "disable", abstract: "Stop a person signing in; their sessions end at once.",
            discussion: "Example: albums user disable guest").parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The person's name.") var name: String

        func run() throws {
            let person = try global.openLibrary(for: .writing).write { try $0.setDisabled(name, true) }
            try UserCommand.report(person, global, "disabled \(person.name): they cannot sign in (albums user enable undoes it)")
        }
    }

    struct Enable: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "enable", abstract: "Let a disabled person sign in again.",
            discussion: "Example: albums user enable guest").parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The person's name.") var name: String

        func run() throws {
            let person = try global.openLibrary(for: .writing).write { try $0.setDisabled(name, false) }
            try UserCommand.report(person, global, "enabled \(person.name)")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove a person, their roles and sessions.",
            discussion: """
                Albums they own stay; the history keeps the name they made changes under.

                Example: albums user remove guest
                """).parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The person's name.") var name: String

        func run() throws {
            let library = try global.openLibrary(for: .writing)
            let person = try library.write { writer in
                let person = try writer.person(named: name)
                try writer.removePerson(named: name)
                return person
            }
            try UserCommand.report(person, global, "removed \(person.name)")
        }
    }
}
