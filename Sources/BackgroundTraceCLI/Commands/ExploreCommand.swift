import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceReplay
import Foundation

/// `bgtrace explore`: runs a shipped scenario under many seeds, shrinks each distinct
/// failure and writes its minimal trace (docs/guides/exploration.md).
enum ExploreCommand {
  /// `--list`: the shipped scenarios, one name per line.
  static func list(console: some Console) -> ExitStatus {
    for scenario in ExplorationScenarios.all { console.write(scenario.name + "\n") }
    return .success
  }

  /// Explores `name` and prints `RULE: seed S, shrunk from A events to B events: PATH`
  /// per distinct failure, in rule order; the same arguments print the same lines.
  ///
  /// - Returns: ``ExitStatus/findings`` when a run failed, else ``ExitStatus/success``.
  static func run(scenario name: String, options: ExploreOptions, console: some Console) throws -> ExitStatus {
    guard let scenario = ExplorationScenarios.named(name),
      let shard = ExplorationShard(options.shardIndex, of: options.shardCount)
    else {
      throw UsageError("unknown scenario '\(name)'; run 'bgtrace explore --list'")
    }
    let exploration = Exploration(runs: options.runs, seed: options.seed, shard: shard)
    let report = exploration.explore(scenario)
    guard !report.isClean else { return .success }

    let directory =
      options.outputDirectory
      ?? FileManager.default.temporaryDirectory.appendingPathComponent("bgtrace-explore").path
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw OutputError(file: directory, message: "cannot create the output directory")
    }
    for failure in report.failures {
      let path = (directory as NSString).appendingPathComponent(failure.fileName)
      let file = try OutputFile(path: path)
      try file.write(Array(failure.minimalTraceText.utf8))
      try file.close()
      console.write(failure.line(path: path) + "\n")
      console.writeError(
        "  \(failure.failingSeeds.count) of \(report.seeds.count) runs failed; reproduce with "
          + "'bgtrace explore \(name) --seed \(failure.seed) --runs 1'\n")
    }
    return .findings
  }
}
