import BackgroundTrace
import BackgroundTraceExport
import Foundation

/// `bgtrace stats PATH…`: counts per trace, files or directories.
enum StatsCommand {
  static func run(paths: [String], console: some Console) throws -> ExitStatus {
    var status = ExitStatus.success
    for (index, path) in try TraceFiles.expand(paths).enumerated() {
      if index > 0 { console.write("\n") }
      var reader = try TraceReader(path: path)
      var statistics = TraceStatistics()
      while let located = try reader.next() { statistics.add(located.event) }
      let size = path == "-" ? nil : (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
      console.write(statistics.report(name: reader.file, format: reader.format, bytes: size ?? nil))
      if BGTrace.reportDamage(reader.damage, console: console) != .success { status = .badInput }
    }
    return status
  }
}
