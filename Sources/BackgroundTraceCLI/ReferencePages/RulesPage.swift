import BackgroundTraceCheck
package import Foundation

/// docs/rules.md, produced from the rules' declarations (``Rule/declaration``) and their
/// traces under `Traces/rules`: the rules table, and in each rule's section its severity,
/// how to fix it and its examples (the firing trace with what `bgtrace check` prints for
/// it, the near miss, and the rule's other traces). What the page says in its own words —
/// everything before `## Rules`, and each section's explanation between its severity and
/// its fix — is kept as the page has it. `Tools/generate-docs.sh` writes the page; a test
/// fails when the committed page differs from what this produces.
package enum RulesPage {
  /// A page that cannot be produced: what is missing or out of place, and where.
  package struct Problem: Error, CustomStringConvertible {
    /// One sentence naming the file and what was expected.
    package var description: String
  }

  /// The page as it should read, given the page as it is (`page`, for its own words) and
  /// the package root (`root`, for `Traces/rules`).
  package static func render(page: String, root: URL) throws(Problem) -> String {
    guard let rulesHeading = page.range(of: "\n## Rules\n") else {
      throw Problem(description: "docs/rules.md: expected a '## Rules' heading")
    }
    let preamble = page[..<rulesHeading.upperBound]
    let sections = try explanations(in: String(page[rulesHeading.upperBound...]))
    var out = String(preamble) + "\n" + table() + "\n"
    for rule in Rule.allCases {
      guard let explanation = sections[rule.id] else {
        throw Problem(description: "docs/rules.md: expected a section '### \(rule.id)' explaining the rule")
      }
      out += try section(rule, explanation: explanation, root: root)
    }
    return out.hasSuffix("\n\n") ? String(out.dropLast()) : out
  }

  /// The table of every rule, in declaration order.
  static func table() -> String {
    var table = "| rule | severity | fires when |\n|---|---|---|\n"
    for rule in Rule.allCases {
      let declaration = rule.declaration
      table += "| [`\(rule.id)`](#\(rule.id)) | \(declaration.severity.rawValue) | \(declaration.summary) |\n"
    }
    return table
  }

  /// Each rule section's explanation, by rule id: the lines between its `Severity:` line
  /// and its `**How to fix.**` paragraph.
  static func explanations(in rules: String) throws(Problem) -> [String: String] {
    var found: [String: String] = [:]
    let parts = rules.components(separatedBy: "\n### ").dropFirst()
    let ids = Set(Rule.allCases.map(\.id))
    for part in parts {
      let id = String(part.prefix { $0 != "\n" })
      guard ids.contains(id) else {
        throw Problem(description: "docs/rules.md: '### \(id)' names no rule (expected one of Rule's ids)")
      }
      guard found[id] == nil else {
        throw Problem(description: "docs/rules.md: a second section '### \(id)'")
      }
      guard let severity = part.range(of: "\nSeverity: "),
        let lineEnd = part[severity.upperBound...].firstIndex(of: "\n"),
        let fix = part.range(of: "\n**How to fix.**")
      else {
        throw Problem(
          description: "docs/rules.md: section '### \(id)' needs a 'Severity:' line, its explanation, "
            + "then a '**How to fix.**' paragraph")
      }
      found[id] = String(part[lineEnd..<fix.lowerBound]).trimmingCharacters(in: .newlines)
    }
    return found
  }

  /// One rule's section.
  static func section(_ rule: Rule, explanation: String, root: URL) throws(Problem) -> String {
    let declaration = rule.declaration
    let traces = try traceNames(of: rule, root: root)
    var out = "### \(rule.id)\n\nSeverity: **\(declaration.severity.rawValue)**.\n\n"
    out += explanation + "\n\n**How to fix.** " + declaration.howToFix + "\n\n"
    let fires = "\(rule.id).fires.txt"
    let nearMiss = "\(rule.id).near-miss.txt"
    out += "Fires — `Traces/rules/\(fires)`:\n\n" + (try textBlock(fires, root: root)) + "\n"
    out += "`bgtrace check` prints:\n\n```text\n" + (try findings(fires, root: root)) + "```\n\n"
    out += "Near miss — `Traces/rules/\(nearMiss)`:\n\n" + (try textBlock(nearMiss, root: root)) + "\n"
    let others = traces.filter { $0 != fires && $0 != nearMiss }
    if !others.isEmpty {
      out += wrapped("More traces: " + others.map { "`\($0)`" }.joined(separator: ", ") + ".") + "\n"
    }
    return out
  }

  /// The rule's traces in `Traces/rules`, firing ones first, each group by name.
  static func traceNames(of rule: Rule, root: URL) throws(Problem) -> [String] {
    let directory = root.appendingPathComponent("Traces/rules")
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else {
      throw Problem(description: "\(directory.path): cannot list the rule traces")
    }
    let mine = names.filter { $0.hasSuffix(".txt") }
    let firing = mine.filter { $0 == "\(rule.id).fires.txt" || $0.hasPrefix("\(rule.id).fires-") }.sorted()
    let near = mine.filter { $0 == "\(rule.id).near-miss.txt" || $0.hasPrefix("\(rule.id).near-miss-") }.sorted()
    for required in ["\(rule.id).fires.txt", "\(rule.id).near-miss.txt"] where !mine.contains(required) {
      throw Problem(description: "Traces/rules/\(required): expected, as every rule has a firing and a near-miss trace")
    }
    return firing + near
  }

  /// A trace's text in a `text` block.
  static func textBlock(_ name: String, root: URL) throws(Problem) -> String {
    let url = root.appendingPathComponent("Traces/rules/\(name)")
    guard let text = try? String(contentsOf: url, encoding: .utf8) else {
      throw Problem(description: "Traces/rules/\(name): cannot be read as UTF-8 text")
    }
    return "```text\n" + text + (text.hasSuffix("\n") ? "" : "\n") + "```\n"
  }

  /// What `bgtrace check Traces/rules/NAME` prints, run from the package root.
  static func findings(_ name: String, root: URL) throws(Problem) -> String {
    let shown = "Traces/rules/\(name)"
    let result = CheckCommand.check(root.appendingPathComponent(shown).path, configuration: CheckerConfiguration())
    if let error = result.error { throw Problem(description: error) }
    guard !result.findings.isEmpty else {
      throw Problem(description: "\(shown): expected a finding (a firing trace), found none")
    }
    return result.findings.map { $0.line(path: shown) + "\n" }.joined()
  }

  /// `text` broken at spaces into lines of at most 88 characters (a word longer than
  /// that stands alone).
  static func wrapped(_ text: String) -> String {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty && line.count + 1 + word.count > 88 {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    lines.append(line)
    return lines.joined(separator: "\n") + "\n"
  }
}
