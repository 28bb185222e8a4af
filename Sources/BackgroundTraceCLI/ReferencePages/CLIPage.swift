import Foundation

/// docs/cli.md with each command's section holding what `bgtrace help COMMAND` prints
/// (the overview under `## bgtrace`), which the options' declarations produce in part
/// (``CommandName/options``); the rest of the page is kept as it is.
/// `Tools/generate-docs.sh` writes it; a test fails when the page differs.
package enum CLIPage {
  /// The page as it should read, given the page as it is.
  package static func render(page: String) -> String {
    var out = page
    for topic in [nil] + CommandName.allCases.filter({ $0 != .help }).map(Optional.some) {
      let heading = "## bgtrace" + (topic.map { " \($0.rawValue)" } ?? "") + "\n\n```\n"
      guard let start = out.range(of: heading), let end = out[start.upperBound...].range(of: "```") else { continue }
      out.replaceSubrange(start.upperBound..<end.lowerBound, with: HelpText.text(for: topic))
    }
    return out
  }
}
