import BackgroundTrace
import Foundation

/// A file (or standard output for `-`) that a command writes in blocks.
final class OutputFile {
  let name: String
  private let handle: FileHandle
  private let closesHandle: Bool
  private var pending: [UInt8] = []
  private static let blockSize = 256 * 1024

  /// Creates (or truncates) the file at `path`, or uses standard output for `-`.
  init(path: String) throws(OutputError) {
    if path == "-" {
      name = "<stdout>"
      handle = FileHandle.standardOutput
      closesHandle = false
    } else {
      name = path
      guard FileManager.default.createFile(atPath: path, contents: nil),
        let handle = FileHandle(forWritingAtPath: path)
      else {
        throw OutputError(file: path, message: "cannot create the output file")
      }
      self.handle = handle
      closesHandle = true
    }
  }

  func write(_ bytes: [UInt8]) throws(OutputError) {
    pending.append(contentsOf: bytes)
    if pending.count >= Self.blockSize { try drain() }
  }

  func write(_ text: String) throws(OutputError) {
    try write(Array(text.utf8))
  }

  func close() throws(OutputError) {
    try drain()
    guard closesHandle else { return }
    do {
      try handle.close()
    } catch {
      throw OutputError(file: name, message: "close failed: \(error.localizedDescription)")
    }
  }

  private func drain() throws(OutputError) {
    guard !pending.isEmpty else { return }
    do {
      try handle.write(contentsOf: pending)
    } catch {
      throw OutputError(file: name, message: "write failed: \(error.localizedDescription)")
    }
    pending.removeAll(keepingCapacity: true)
  }
}
