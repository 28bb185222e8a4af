// Writes the reference pages produced from declarations: docs/rules.md from the rules'
// declarations and Traces/rules. Run by Tools/generate-docs.sh from the package root.
import BackgroundTraceCLI
import Foundation

let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
let url = root.appendingPathComponent("docs/rules.md")
do {
  let page = try String(contentsOf: url, encoding: .utf8)
  let rendered = try RulesPage.render(page: page, root: root)
  if rendered != page {
    try rendered.write(to: url, atomically: true, encoding: .utf8)
    print("wrote docs/rules.md")
  } else {
    print("docs/rules.md is up to date")
  }
} catch {
  FileHandle.standardError.write(Data("bgtrace-docs: \(error)\n".utf8))
  exit(2)
}
