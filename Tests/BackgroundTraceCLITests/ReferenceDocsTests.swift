import BackgroundTraceCLI
import Foundation
import TestSupport
import Testing

/// docs/cli.md holds each command's help text, exactly as `bgtrace help COMMAND` prints it.
@Suite struct ReferenceDocsTests {
  static let reference = Repository.root.appendingPathComponent("docs/cli.md")

  func help(_ arguments: String...) -> String {
    let console = CapturingConsole()
    #expect(BGTrace.run(arguments, console: console) == .success)
    return console.output
  }

  @Test func theReferencePageMatchesEveryCommandsHelp() throws {
    let page = try String(contentsOf: Self.reference, encoding: .utf8)
    #expect(page.contains("## bgtrace\n\n```\n" + help("help") + "```"))
    for command in CommandName.allCases where command != .help {
      #expect(
        page.contains("## bgtrace \(command.rawValue)\n\n```\n" + help("help", command.rawValue) + "```"),
        "docs/cli.md is out of date for \(command.rawValue); regenerate it from bgtrace help")
    }
  }

  /// docs/rules.md's table, severities, fixes and examples are what the rules'
  /// declarations and `Traces/rules` produce (`Tools/generate-docs.sh` writes them).
  @Test func theRulesPageIsWhatTheDeclarationsProduce() throws {
    let url = Repository.root.appendingPathComponent("docs/rules.md")
    let page = try String(contentsOf: url, encoding: .utf8)
    let rendered = try RulesPage.render(page: page, root: Repository.root)
    #expect(rendered == page, "docs/rules.md is out of date: run Tools/generate-docs.sh")
  }

  /// A rule the page does not explain is an error naming the section to write, not a
  /// page without it.
  @Test func aRuleWithoutASectionIsNamed() throws {
    let page = try String(contentsOf: Repository.root.appendingPathComponent("docs/rules.md"), encoding: .utf8)
    let withoutOne = page.replacingOccurrences(of: "\n### net-handler-early\n", with: "\n### \n")
    #expect(throws: RulesPage.Problem.self) { try RulesPage.render(page: withoutOne, root: Repository.root) }
    let start = try #require(page.range(of: "\n### net-handler-early\n"))
    let end = try #require(page.range(of: "\n### net-handler-unknown\n"))
    let removed = page.replacingCharacters(in: start.lowerBound..<end.lowerBound, with: "")
    do {
      _ = try RulesPage.render(page: removed, root: Repository.root)
      Issue.record("a page without the net-handler-early section was rendered")
    } catch {
      #expect(error.description == "docs/rules.md: expected a section '### net-handler-early' explaining the rule")
    }
  }

  /// A command's usage line and option list follow from its declared options
  /// (`CommandName.options`): written here by hand as they must print, wrapped at 79
  /// columns after the operands, labels padded to the longest plus two.
  @Test func usageAndOptionListsFollowFromTheDeclaredOptions() {
    #expect(
      help("help", "check").hasPrefix(
        """
        Usage: bgtrace check PATH… [--retry-limit N] [--budget S] [--grace S]
                                   [--format text|jsonl] [--strict] [--ignore RULE]…
                                   [--baseline FILE | --write-baseline FILE]
                                   [--platform ios|android]

        """))
    #expect(
      help("help", "check").contains("\n  --write-baseline FILE   write every finding to FILE as a baseline, exit 0\n"))
    #expect(
      help("help", "explore").hasPrefix(
        """
        Usage: bgtrace explore --list
               bgtrace explore NAME [--runs N] [--seed S] [--out DIR] [--shard K/N]

        """))
    #expect(
      help("help", "export").hasPrefix(
        "Usage: bgtrace export PATH --format chrome|jsonl|svg|html [--from T] [--to T]\n"))
    #expect(help("help", "export").contains("\nOptions:\n  --from T, --to T        export only the events between"))
  }

  @Test func everyCommandHasUsageInItsHelp() {
    for command in CommandName.allCases where command != .help {
      #expect(help(command.rawValue, "--help").hasPrefix("Usage: bgtrace \(command.rawValue)"))
      #expect(help("help", command.rawValue).contains("Exit status:"))
    }
  }

  @Test func oneTextconvCommandEverywhere() throws {
    let command = #"git config diff.bgtrace.textconv "bgtrace dump""#
    let root = Repository.root
    #expect(help("help", "dump").contains("    " + command + "\n"))
    for file in ["README.md", ".gitattributes", "docs/cli.md"] {
      let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
      #expect(text.contains(command), "\(file) names another textconv command")
      #expect(!text.contains("swift run bgtrace dump") && !text.contains("--skip-build bgtrace dump"), "\(file)")
    }
  }

  /// The newest row of docs/releasing.md's "Releases" table: `| X.Y.Z | DATE | `COMMIT` |`.
  static func newestRelease() throws -> (version: String, commit: String) {
    let releasing = try String(contentsOf: Repository.root.appendingPathComponent("docs/releasing.md"), encoding: .utf8)
    let row = try Regex(#"^\| ([0-9]+\.[0-9]+\.[0-9]+) \| [0-9]{4}-[0-9]{2}-[0-9]{2} \| `([0-9a-f]{40})` \|$"#)
    let rows = releasing.split(separator: "\n").compactMap { line in
      (try? row.wholeMatch(in: line)).flatMap { match in
        match.output[1].substring.flatMap { version in match.output[2].substring.map { (String(version), String($0)) } }
      }
    }
    return try #require(rows.last, "docs/releasing.md's Releases table has no row")
  }

  /// README.md's install line and the manifest it shows name the newest release of
  /// docs/releasing.md by its commit (`revision: "COMMIT")  // X.Y.Z`), the version
  /// requirement beside it names that version, and CHANGELOG.md has its section
  /// (docs/releasing.md, "Cutting a release").
  @Test func installLineNamesTheNewestRelease() throws {
    let root = Repository.root
    let release = try Self.newestRelease()
    let pinned = "revision: \"\(release.commit)\")  // \(release.version)"
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let manifest = try String(
      contentsOf: root.appendingPathComponent("Tools/DependentPackage/Package.swift"), encoding: .utf8)
    #expect(readme.contains(#".package(url: "https://github.com/<owner>/BackgroundTrace.git", "# + pinned))
    #expect(manifest.contains(".package(url: backgroundTrace, " + pinned))
    #expect(readme.contains(".upToNextMinor(from: \"\(release.version)\")"))
    let anyRevision = try Regex(#"revision: "([0-9a-f]{40})""#)
    for (file, text) in [("README.md", readme), ("Tools/DependentPackage/Package.swift", manifest)] {
      let named = Set(text.matches(of: anyRevision).compactMap { $0.output[1].substring.map(String.init) })
      #expect(named == [release.commit], "\(file) names the revisions \(named.sorted())")
    }
    let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
    let sections = changelog.split(separator: "\n").filter { $0.hasPrefix("## ") }
    #expect(sections.first == "## Unreleased", "CHANGELOG.md starts with \(sections.first ?? "no section")")
    #expect(
      sections.contains { $0.hasPrefix("## \(release.version) — ") },
      "CHANGELOG.md has no '## \(release.version) — DATE' section for the newest release")
  }

  /// `bgtrace --version` names CHANGELOG.md's newest version section, which the release
  /// commit adds before docs/releasing.md lists it.
  @Test func versionIsTheNewestRelease() throws {
    let changelog = try String(
      contentsOf: Repository.root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
    let newest = changelog.split(separator: "\n").first { $0.hasPrefix("## ") && $0 != "## Unreleased" }
    #expect(
      newest?.hasPrefix("## \(BGTrace.version) — ") == true, "CHANGELOG.md's newest section is \(newest ?? "none")")
  }
}
