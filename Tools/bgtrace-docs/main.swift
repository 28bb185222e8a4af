// Writes the reference pages produced from declarations: docs/rules.md from the rules'
// declarations and Traces/rules, docs/cli.md's help blocks from the commands' help and
// options. Run by Tools/generate-docs.sh from the package root.
import BackgroundTraceCLI
import Foundation

let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
do {
  for (name, render) in [
    ("docs/rules.md", { (page: String) throws -> String in try RulesPage.render(page: page, root: root) }),
    ("docs/cli.md", { (page: String) throws -> String in CLIPage.render(page: page) }),
  ] {
    let url = root.appendingPathComponent(name)
    let page = try String(contentsOf: url, encoding: .utf8)
    let rendered = try render(page)
    if rendered != page {
      try rendered.write(to: url, atomically: true, encoding: .utf8)
      print("wrote \(name)")
    } else {
      print("\(name) is up to date")
    }
  }
} catch {
  FileHandle.standardError.write(Data("bgtrace-docs: \(error)\n".utf8))
  exit(2)
}
