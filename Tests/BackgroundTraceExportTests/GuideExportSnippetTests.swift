import BackgroundTrace
import BackgroundTraceExport
import Testing

/// docs/guides/checking.md, "Pictures and exports": the library's lines, compiled and
/// run (the snippet test checks that the guide's text is this file's).
@Test func theGuidesExportLinesRender() throws {
  let trace = try RecordedTrace(text: "bgtrace 1\n0 app.launch\n1 task.begin id=1 name=Save\n2 task.end id=1\n")
  // one format per `bgtrace export --format` word: .svg, .html, .chrome, .jsonl
  let svg = ExportFormat.svg.render(trace, named: "save-document")  // also from:to:
  let chrome = ExportFormat.chrome.render(trace)
  #expect(svg.contains("<svg "))
  #expect(chrome.hasPrefix(#"{"traceEvents":["#))
}
