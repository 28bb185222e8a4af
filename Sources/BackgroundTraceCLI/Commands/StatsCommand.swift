import BackgroundTrace
import BackgroundTraceExport
import BackgroundTraceImport
import Foundation

/// `bgtrace stats PATH…`: counts per trace, files or directories. A file that cannot be
/// read is reported on standard error and the others are still counted, as `check`
/// does; the exit status is then 2.
enum StatsCommand {
  static func run(paths: [String], platform: LogPlatform? = nil, console: some Console) throws -> ExitStatus {
    var status = ExitStatus.success
    var reported = 0
    for path in try TraceFiles.expand(paths) {
      let report: String
      let damage: [TraceDamage]
      do {
        if let imported = try InMemoryImport.log(at: path, platform: platform) {  // a device log, imported in memory
          console.writeError("bgtrace: \(imported.note)\n")
          var statistics = TraceStatistics()
          for event in imported.trace.events { statistics.add(event) }
          if reported > 0 { console.write("\n") }
          reported += 1
          console.write(statistics.report(name: path, formatName: "device log", bytes: nil))
          continue
        }
        var reader = try TraceReader(path: path)
        var statistics = TraceStatistics()
        while let located = try reader.next() { statistics.add(located.event) }
        let size = path == "-" ? nil : (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        // A killed recorder's file ends in reserved zeros: not trace bytes.
        let bytes = (size ?? nil).map { $0 - reader.unwrittenBytes }
        report = statistics.report(
          name: reader.file, format: reader.format, bytes: bytes, unwritten: reader.unwrittenBytes)
        damage = reader.damage
      } catch {
        console.writeError(BGTrace.errorLine(error))
        status = .badInput
        continue
      }
      if reported > 0 { console.write("\n") }
      reported += 1
      console.write(report)
      if BGTrace.reportDamage(damage, console: console) != .success { status = .badInput }
    }
    return status
  }
}
