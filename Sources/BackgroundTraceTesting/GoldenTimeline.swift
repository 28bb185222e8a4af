package import BackgroundTrace
import BackgroundTraceExport
import Foundation

/// A picture a failing golden assertion leaves for review, so a reviewer sees the
/// difference without running anything (docs/guides/checking.md, "Pictures and exports"): the SVG
/// timelines of the golden and of the actual trace, and the actual one's HTML page,
/// drawn as `bgtrace export --format svg|html` draws them (docs/cli.md, "bgtrace export").
package struct GoldenTimeline: Sendable, Hashable {
  /// The file name: `<name>.golden.svg`, `<name>.actual.svg` or `<name>.actual.html`.
  package var fileName: String
  /// The SVG or HTML text.
  package var text: String

  /// The pictures of a failure against the golden named `goldenFileName`: the golden's
  /// SVG timeline when there is a golden, then the actual trace's SVG and HTML timelines.
  ///
  /// `<name>` is `goldenFileName` without `.txt` or `.bgtrace`. The golden is drawn
  /// under its file name, the actual trace under the golden's file name with `.actual`,
  /// the names of the files they come from.
  package static func pictures(golden: RecordedTrace?, actual: RecordedTrace, goldenFileName: String)
    -> [GoldenTimeline]
  {
    let name = baseName(goldenFileName)
    var pictures: [GoldenTimeline] = []
    if let golden {
      pictures.append(
        GoldenTimeline(fileName: name + ".golden.svg", text: ExportFormat.svg.render(golden, named: goldenFileName)))
    }
    let actualName = goldenFileName + ".actual"
    pictures.append(
      GoldenTimeline(fileName: name + ".actual.svg", text: ExportFormat.svg.render(actual, named: actualName)))
    pictures.append(
      GoldenTimeline(fileName: name + ".actual.html", text: ExportFormat.html.render(actual, named: actualName)))
    return pictures
  }

  /// Writes `pictures` into `directory`, first removing the ones an earlier failure of
  /// the golden `goldenFileName` left there (a golden that appeared since has no
  /// `.golden.svg` of the old run).
  package static func write(_ pictures: [GoldenTimeline], goldenFileName: String, to directory: String) throws {
    remove(goldenFileName: goldenFileName, from: directory)
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for picture in pictures {
      let path = (directory as NSString).appendingPathComponent(picture.fileName)
      try Data(picture.text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
  }

  /// Removes the pictures of the golden `goldenFileName` from `directory`, if any.
  package static func remove(goldenFileName: String, from directory: String) {
    let name = baseName(goldenFileName)
    for suffix in [".golden.svg", ".actual.svg", ".actual.html"] {
      try? FileManager.default.removeItem(atPath: (directory as NSString).appendingPathComponent(name + suffix))
    }
  }

  /// `fileName` without `.txt` or `.bgtrace`.
  private static func baseName(_ fileName: String) -> String {
    for suffix in [".txt", ".bgtrace"] where fileName.hasSuffix(suffix) {
      return String(fileName.dropLast(suffix.count))
    }
    return fileName
  }
}
