import BackgroundTraceCLI
import Testing

@Suite struct CommandLineParserTests {
  @Test func noArgumentsIsTheUsage() throws {
    #expect(try CommandLineParser.parse([]) == .usage)
  }

  @Test func helpFlagsAndTopics() throws {
    #expect(try CommandLineParser.parse(["--help"]) == .help(topic: nil))
    #expect(try CommandLineParser.parse(["-h"]) == .help(topic: nil))
    #expect(try CommandLineParser.parse(["help", "convert"]) == .help(topic: .convert))
    #expect(try CommandLineParser.parse(["dump", "--help"]) == .help(topic: .dump))
    #expect(try CommandLineParser.parse(["--version"]) == .version)
  }

  @Test func dumpTakesExactlyOnePath() throws {
    #expect(try CommandLineParser.parse(["dump", "a.bgtrace"]) == .dump(path: "a.bgtrace"))
    #expect(try CommandLineParser.parse(["dump", "-"]) == .dump(path: "-"))
    #expect(throws: UsageError("'bgtrace dump' needs PATH; see 'bgtrace help dump'")) {
      try CommandLineParser.parse(["dump"])
    }
    #expect(throws: UsageError("unexpected argument 'b' for 'bgtrace dump'")) {
      try CommandLineParser.parse(["dump", "a", "b"])
    }
  }

  @Test func convertTakesTheFormFromTheExtensionOrTo() throws {
    #expect(
      try CommandLineParser.parse(["convert", "a.txt", "b.bgtrace"])
        == .convert(input: "a.txt", output: "b.bgtrace", format: .binary))
    #expect(
      try CommandLineParser.parse(["convert", "a.bgtrace", "b.txt"])
        == .convert(input: "a.bgtrace", output: "b.txt", format: .text))
    #expect(
      try CommandLineParser.parse(["convert", "--to", "text", "a.bgtrace", "-"])
        == .convert(input: "a.bgtrace", output: "-", format: .text))
    #expect(
      try CommandLineParser.parse(["convert", "a", "b", "--to=binary"])
        == .convert(input: "a", output: "b", format: .binary))
  }

  @Test func convertRejectsAnUnknownFormOrMissingOperands() {
    #expect(
      throws: UsageError(
        "cannot tell the output form from 'b.json': name it *.bgtrace or *.txt, or pass --to text|binary")
    ) {
      try CommandLineParser.parse(["convert", "a.txt", "b.json"])
    }
    #expect(throws: UsageError("'--to' takes 'text' or 'binary', not 'json'")) {
      try CommandLineParser.parse(["convert", "a", "b", "--to", "json"])
    }
    #expect(throws: UsageError("'--to' needs a value; see 'bgtrace help convert'")) {
      try CommandLineParser.parse(["convert", "a", "b", "--to"])
    }
    #expect(throws: UsageError("'--to' is given twice")) {
      try CommandLineParser.parse(["convert", "a", "b", "--to", "text", "--to=binary"])
    }
    #expect(throws: UsageError("'bgtrace convert' needs IN and OUT; see 'bgtrace help convert'")) {
      try CommandLineParser.parse(["convert", "a"])
    }
  }

  @Test func unknownCommandsAndOptionsAreErrors() {
    #expect(throws: UsageError("unknown command 'chek'; did you mean 'check'?")) {
      try CommandLineParser.parse(["chek"])
    }
    #expect(
      throws: UsageError(
        "unknown command 'frobnicate'; the commands are demo, check, diff, explain, export, dump, convert, stats, explore, import, watch, help"
      )
    ) {
      try CommandLineParser.parse(["frobnicate"])
    }
    #expect(throws: UsageError("unknown option '--verbose'; run 'bgtrace help' for usage")) {
      try CommandLineParser.parse(["--verbose"])
    }
    #expect(throws: UsageError("unknown option '--fast' for 'bgtrace stats'; see 'bgtrace help stats'")) {
      try CommandLineParser.parse(["stats", "--fast", "a"])
    }
    #expect(throws: UsageError("no help for 'x': it is not a bgtrace command; run 'bgtrace help'")) {
      try CommandLineParser.parse(["help", "x"])
    }
  }

  @Test func demoTakesAnOptionalOutputDirectory() throws {
    #expect(try CommandLineParser.parse(["demo"]) == .demo(outputDirectory: nil))
    #expect(try CommandLineParser.parse(["demo", "--out", "/tmp/x"]) == .demo(outputDirectory: "/tmp/x"))
    #expect(throws: UsageError("unexpected argument 'extra' for 'bgtrace demo'")) {
      try CommandLineParser.parse(["demo", "extra"])
    }
  }

  @Test func statsNeedsAPath() throws {
    #expect(try CommandLineParser.parse(["stats", "a", "b"]) == .stats(paths: ["a", "b"]))
    #expect(throws: UsageError("'bgtrace stats' needs at least one PATH")) {
      try CommandLineParser.parse(["stats"])
    }
  }
}
