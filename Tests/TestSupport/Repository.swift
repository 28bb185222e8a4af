package import Foundation

/// Where the package lives, found from this file's path (Tests/TestSupport/…): what every
/// test target reads the committed traces and docs from.
package enum Repository {
  /// The package root.
  package static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Repository.swift
    .deletingLastPathComponent()  // TestSupport
    .deletingLastPathComponent()  // Tests

  /// `Traces/`.
  package static let traces = root.appendingPathComponent("Traces")

  /// `Traces/golden/`.
  package static let goldens = traces.appendingPathComponent("golden")

  /// The absolute path of `relativePath` under the root.
  package static func path(_ relativePath: String) -> String {
    root.appendingPathComponent(relativePath).path
  }

  /// Every file under `directory` whose name ends in `.suffix`, sorted by path.
  package static func files(under directory: URL, suffix: String) -> [URL] {
    guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
      return []
    }
    var found: [URL] = []
    for case let url as URL in enumerator where url.pathExtension == suffix {
      found.append(url)
    }
    return found.sorted { $0.path < $1.path }
  }
}

/// A fresh, empty directory under the system's temporary directory, removed when it goes.
package struct TemporaryDirectory: ~Copyable {
  /// The directory.
  package let url: URL

  /// Creates the directory.
  package init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("BackgroundTraceTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// The path of `name` in the directory.
  package func path(_ name: String) -> String {
    url.appendingPathComponent(name).path
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }
}

/// A fresh folder for a suite's trace files: each test gets its own (a suite instance
/// per test), removed with it. Unlike ``TemporaryDirectory`` a suite can hold it.
package final class TraceFolder {
  /// The folder's path.
  package let path: String

  /// Creates the folder.
  package init() throws {
    path =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("BackgroundTraceTests-\(UUID().uuidString)", isDirectory: true).path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  /// Writes `bytes` to the file `name` in the folder and returns its path.
  package func write(_ bytes: [UInt8], to name: String) throws -> String {
    let file = (path as NSString).appendingPathComponent(name)
    try Data(bytes).write(to: URL(fileURLWithPath: file))
    return file
  }

  /// Writes `text` to the file `name` in the folder and returns its path.
  package func write(_ text: String, to name: String) throws -> String {
    try write(Array(text.utf8), to: name)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }
}
