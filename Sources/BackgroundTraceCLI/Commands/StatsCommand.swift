import BackgroundTrace
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
      console.write(statistics.report(name: reader.name, format: reader.format, bytes: size ?? nil))
      if BGTrace.reportDamage(reader.damage, console: console) != .success { status = .badInput }
    }
    return status
  }
}

/// Expands command-line paths: files as given, directories searched recursively for
/// trace files (`*.bgtrace`, `*.txt`), in a stable sorted order.
enum TraceFiles {
  static func expand(_ paths: [String]) throws -> [String] {
    var files: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard path == "-" || FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw ByteSourceError(file: path, message: "no such file or directory")
      }
      guard isDirectory.boolValue else {
        files.append(path)
        continue
      }
      guard let enumerator = FileManager.default.enumerator(atPath: path) else {
        throw ByteSourceError(file: path, message: "cannot list the directory")
      }
      var found: [String] = []
      for case let relative as String in enumerator
      where relative.hasSuffix(".bgtrace") || relative.hasSuffix(".txt") {
        found.append((path as NSString).appendingPathComponent(relative))
      }
      files.append(contentsOf: found.sorted())
    }
    return files
  }
}
