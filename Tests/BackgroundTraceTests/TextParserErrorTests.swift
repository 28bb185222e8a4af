import BackgroundTrace
import Testing

/// A malformed text trace and the exact error it must produce.
struct MalformedText: Sendable, CustomTestStringConvertible {
  var name: String
  var text: String
  var line: Int
  var column: Int
  var message: String

  var testDescription: String { name }

  /// A trace whose line 2 is `eventLine`, after a valid header.
  static func event(_ name: String, _ eventLine: String, column: Int, _ message: String) -> MalformedText {
    MalformedText(name: name, text: "bgtrace 1\n\(eventLine)\n", line: 2, column: column, message: message)
  }
}

@Suite struct TextParserErrorTests {
  static let headerCases: [MalformedText] = [
    MalformedText(
      name: "empty input", text: "", line: 1, column: 1,
      message: "expected the header 'bgtrace 1', found an empty input"),
    MalformedText(
      name: "bad header", text: "bgtrace1\n0 app.launch\n", line: 1, column: 1,
      message: #"expected the header 'bgtrace 1' on the first line, found "bgtrace1""#),
    MalformedText(
      name: "comment before header", text: "# golden\nbgtrace 1\n", line: 1, column: 1,
      message: ##"expected the header 'bgtrace 1' on the first line, found "# golden""##),
    MalformedText(
      name: "indented header", text: " bgtrace 1\n", line: 1, column: 1,
      message: #"expected the header 'bgtrace 1' on the first line, found " bgtrace 1""#),
    MalformedText(
      name: "wrong version", text: "bgtrace 2\n0 app.launch\n", line: 1, column: 9,
      message: #"unsupported format version "2"; this reader reads version 1"#),
    MalformedText(
      name: "decimal version", text: "bgtrace 1.0\n", line: 1, column: 9,
      message: #"unsupported format version "1.0"; this reader reads version 1"#),
    MalformedText(
      name: "missing version", text: "bgtrace\n", line: 1, column: 8,
      message: "expected a format version after 'bgtrace'"),
    MalformedText(
      name: "junk after header", text: "bgtrace 1 x\n", line: 1, column: 11,
      message: "expected the end of the header line"),
  ]

  static let eventCases: [MalformedText] = [
    .event("unknown kind", "0 app.lunch", column: 3, "unknown event kind 'app.lunch'; did you mean 'app.launch'?"),
    .event("unknown kind, none near", "0 telemetry", column: 3, "unknown event kind 'telemetry'"),
    .event("missing kind", "0", column: 2, "expected an event kind after the time"),
    .event(
      "missing required field", "0 task.begin name=x", column: 3, "task.begin is missing the required field 'id'"),
    .event(
      "missing second required field", "0 work.result work=w attempt=0", column: 3,
      "work.result is missing the required field 'outcome'"),
    .event("unknown field", "0 task.end id=1 name=x", column: 17, "unknown field 'name' for task.end; expected id"),
    .event(
      "misspelt field", "0 task.begin id=1 nmae=x", column: 19,
      "unknown field 'nmae' for task.begin; did you mean 'name'?"),
    .event(
      "field on a kind without fields", "0 app.launch reason=x", column: 14,
      "unknown field 'reason' for app.launch; it takes no fields"),
    .event("duplicate field", "0 task.end id=1 id=2", column: 17, "field 'id' appears twice"),
    .event("word for an int", "0 task.end id=x", column: 15, "expected a non-negative integer for 'id', found 'x'"),
    .event("negative int", "0 task.end id=-1", column: 15, "expected a non-negative integer for 'id', found '-1'"),
    .event(
      "quoted int", #"0 task.end id="1""#, column: 15, #"expected a non-negative integer for 'id', found '"1"'"#),
    .event(
      "int beyond 63 bits", "0 task.end id=9223372036854775808", column: 15,
      "expected a non-negative integer for 'id', found '9223372036854775808'"),
    .event(
      "bad bool", "0 sched.register ident=a ok=yes", column: 29, "expected true or false for 'ok', found 'yes'"),
    .event(
      "bad enum choice", "0 app.state to=asleep", column: 16,
      "expected one of active, inactive, background, suspended for 'to', found 'asleep'"),
    .event(
      "bad outcome", "0 work.result work=w attempt=0 outcome=ok", column: 40,
      "expected one of success, failure, retry for 'outcome', found 'ok'"),
    .event(
      "seconds with a unit", "0 work.enqueue work=w delay=30s", column: 29,
      "expected a non-negative number of seconds with at most 9 fractional digits for 'delay', found '30s'"),
    .event(
      "negative seconds", "0 sched.submit ident=a type=refresh earliest=-5", column: 46,
      "expected a non-negative number of seconds with at most 9 fractional digits for 'earliest', found '-5'"),
    .event(
      "unterminated string", #"0 mark label="abc"#, column: 14,
      #"unterminated string: expected a closing '"' before the end of the line"#),
    .event(
      "bad escape", #"0 mark label="a\qb""#, column: 16,
      #"unknown escape '\q' in string; expected \" \\ \n \t or \u{HEX}"#),
    .event("escape without brace", #"0 mark label="\u41""#, column: 15, #"expected '{' after \u in string"#),
    .event(
      "empty unicode escape", #"0 mark label="\u{}""#, column: 15, #"expected 1 to 8 hex digits and '}' in \u{…}"#),
    .event("surrogate escape", #"0 mark label="\u{D800}""#, column: 15, #"\u{D800} is not a Unicode scalar value"#),
    .event(
      "control character in string", "0 mark label=\"a\u{1}b\"", column: 16,
      #"control character in string; write it as \u{1}"#),
    .event(
      "junk after closing quote", #"0 mark label="a"b"#, column: 17,
      "expected a space after the closing quote of 'label'"),
    .event(
      "bad byte in bare value", "0 mark label=a,b", column: 15,
      "expected a value for 'label' (a bare word [A-Za-z0-9._:/+-] or a quoted string), found ','"),
    .event("empty value", "0 mark label=", column: 14, "expected a value after 'label='"),
    .event("negative time", "-1 app.launch", column: 1, "negative time '-1'; times count up from 0"),
    .event(
      "ten fractional digits", "0.1234567891 app.launch", column: 1,
      "expected a time in seconds (a decimal like 12.5 with at most 9 fractional digits), found '0.1234567891'"),
    .event(
      "exponent time", "1e3 app.launch", column: 1,
      "expected a time in seconds (a decimal like 12.5 with at most 9 fractional digits), found '1e3'"),
    .event(
      "time without fraction digits", "1. app.launch", column: 1,
      "expected a time in seconds (a decimal like 12.5 with at most 9 fractional digits), found '1.'"),
    .event(
      "time beyond the largest", "9223372037 app.launch", column: 1,
      "expected a time in seconds (a decimal like 12.5 with at most 9 fractional digits), found '9223372037'"),
    .event("meta without pairs", "meta", column: 5, "expected key=value pairs after 'meta'"),
    .event("duplicate meta key on one line", "meta a=1 a=2", column: 10, "field 'a' appears twice"),
    .event(
      "sched.cancel with both", "0 sched.cancel ident=a all=true", column: 24,
      "sched.cancel takes ident=… or all=true, not both"),
    .event(
      "sched.cancel with ident and all=false", "0 sched.cancel ident=a all=false", column: 24,
      "sched.cancel takes ident=… or all=true, not both"),
    .event("sched.cancel with neither", "0 sched.cancel", column: 3, "sched.cancel needs ident=… or all=true"),
    .event(
      "sched.cancel all=false", "0 sched.cancel all=false", column: 20,
      "expected all=true (or ident=…) for sched.cancel"),
    .event("env.set without pairs", "0 env.set", column: 3, "env.set needs at least one key=value pair"),
    .event("token without equals", "0 task.end id", column: 12, "expected key=value, found 'id'"),
    .event("env.set word without equals", "0 env.set network", column: 11, "expected key=value, found 'network'"),
    .event("tab separated", "0\ttask.end\tid=x", column: 15, "expected a non-negative integer for 'id', found 'x'"),
    .event(
      "columns count UTF-8 bytes", #"0 mark label="é" x=1"#, column: 19,
      "unknown field 'x' for mark; expected label"),
  ]

  static let orderCases: [MalformedText] = [
    MalformedText(
      name: "time going backwards", text: "bgtrace 1\n5 app.launch\n4.999 app.launch\n", line: 3, column: 1,
      message: "time 4.999 is earlier than the previous event's time 5"),
    MalformedText(
      name: "meta after the first event", text: "bgtrace 1\n0 app.launch\nmeta a=b\n", line: 3, column: 1,
      message: "meta lines must come before the first event"),
    MalformedText(
      name: "duplicate meta key across lines", text: "bgtrace 1\nmeta a=1\nmeta b=2 a=3\n", line: 3, column: 10,
      message: "meta key 'a' appears twice"),
    MalformedText(
      name: "CRLF line endings", text: "bgtrace 1\r\n# note\r\n\r\n0 task.end id=x\r\n", line: 4, column: 15,
      message: "expected a non-negative integer for 'id', found 'x'"),
    MalformedText(
      name: "last line without newline", text: "bgtrace 1\n0 app.launch\n1 app.state", line: 3, column: 3,
      message: "app.state is missing the required field 'to'"),
  ]

  @Test(arguments: headerCases + eventCases + orderCases)
  func malformedTextThrowsAtTheExactPosition(_ sample: MalformedText) {
    let error = #expect(throws: TraceFormatError.self) { try RecordedTrace(text: sample.text) }
    #expect(
      error
        == TraceFormatError(
          file: nil, position: .text(line: sample.line, column: sample.column), message: sample.message))
  }

  @Test func descriptionNamesFileLineAndColumn() {
    let error = #expect(throws: TraceFormatError.self) {
      try RecordedTrace(text: "bgtrace 1\n0 app.launch\n0 task.end id=x\n", file: "golden.txt")
    }
    #expect(error?.file == "golden.txt")
    #expect(error?.description == "golden.txt:3:15: expected a non-negative integer for 'id', found 'x'")
  }

  @Test func descriptionWithoutFileSaysInput() {
    let error = #expect(throws: TraceFormatError.self) { try RecordedTrace(text: "bgtrace 9\n") }
    #expect(error?.description == #"<input>:1:9: unsupported format version "9"; this reader reads version 1"#)
  }

  @Test func errorStopsAtTheFirstBadLine() {
    let text = "bgtrace 1\n0 app.launch\n1 app.lunch\n0 app.launch\n"
    let error = #expect(throws: TraceFormatError.self) { try RecordedTrace(text: text) }
    #expect(error?.position == .text(line: 3, column: 3))
  }
}
