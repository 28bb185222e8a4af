import BackgroundTrace
import Foundation

/// Expands command-line paths into trace files: a file as given, a directory searched
/// recursively for files whose content starts like a trace (docs/cli.md, "bgtrace check").
enum TraceFiles {
  /// The files `paths` name, each directory's files in sorted order.
  ///
  /// Inside a directory a file counts as a trace when it starts with the text form's
  /// header (`bgtrace` and a blank) or the binary form's magic bytes, whatever its
  /// extension; hidden folders (`.git`, `.build`, …) are not searched.
  ///
  /// - Throws: ``ByteSourceError`` for a path that does not exist, a directory that
  ///   cannot be listed or one that holds no trace.
  static func expand(_ paths: [String]) throws -> [String] {
    var files: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard path == "-" || FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw ByteSourceError(file: path, message: "cannot open: No such file or directory")
      }
      guard isDirectory.boolValue else {
        files.append(path)
        continue
      }
      var found: [String] = []
      try collect(in: path, relative: "", into: &found)
      guard !found.isEmpty else {
        throw ByteSourceError(
          file: path,
          message: "holds no trace: no file under it starts with the text header 'bgtrace 1' or the binary magic bytes")
      }
      files.append(contentsOf: found.sorted().map { (path as NSString).appendingPathComponent($0) })
    }
    return files
  }

  /// Adds the relative paths of the traces under `directory/relative` to `found`.
  private static func collect(in directory: String, relative: String, into found: inout [String]) throws {
    let folder = relative.isEmpty ? directory : (directory as NSString).appendingPathComponent(relative)
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: folder)
    } catch {
      throw ByteSourceError(file: folder, message: "cannot list the directory")
    }
    for name in names {
      let entry = relative.isEmpty ? name : (relative as NSString).appendingPathComponent(name)
      let full = (directory as NSString).appendingPathComponent(entry)
      let type = try? FileManager.default.attributesOfItem(atPath: full)[.type] as? FileAttributeType
      if type == .typeDirectory {
        // Hidden folders hold tools' state (.git, .build, .swiftpm), not traces; symbolic
        // links to folders are not followed, so a link cycle cannot loop.
        if !name.hasPrefix(".") { try collect(in: directory, relative: entry, into: &found) }
      } else if startsLikeATrace(full) {
        found.append(entry)
      }
    }
  }

  /// Whether the file at `path` starts with the text header or the binary magic.
  /// The name a reader gives the input at `path` (``TraceReader/file``): the path, or
  /// `<stdin>` for `-`.
  static func name(of path: String) -> String { path == "-" ? "<stdin>" : path }

  static func startsLikeATrace(_ path: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    let start = Array((try? handle.read(upToCount: BinaryFormat.magic.count)) ?? Data())
    if start == BinaryFormat.magic { return true }
    // The text form's first line is the header `bgtrace 1` (docs/FORMAT.md); blanks are
    // spaces or tabs.
    let header = Array("bgtrace".utf8)
    return start.count > header.count && Array(start.prefix(header.count)) == header
      && (start[header.count] == UInt8(ascii: " ") || start[header.count] == UInt8(ascii: "\t"))
  }
}
