extension SimulatedSystem {
  /// The app's own random choices, drawn from the system's seed: how long an upload or a
  /// save takes, when the user comes back, whether the network answers. One seed then
  /// drives both what the system decides (launch delays, faults) and the app's timing, so
  /// a test that runs under many seeds fails the same way every time it is given the
  /// failing seed (docs/guides/replaying.md, "Replaying a flaky failure").
  ///
  /// ```swift
  /// let system = SimulatedSystem(seed: seed)
  /// let upload = system.appChoices.duration(in: .seconds(10) ... .seconds(40))
  /// ```
  ///
  /// Under ``init(seed:configuration:faults:meta:)`` the stream is the system's own, apart
  /// from the generator of its decisions: drawing from it changes none of them, and the
  /// same seed gives the same draws on every machine and toolchain (SplitMix64 seeded
  /// with the seed XOR `0xA99C_4011_CE5A_99C0`, bounded as ``Choices`` bounds every
  /// draw). Under ``init(choices:configuration:faults:meta:)`` it is that exploration
  /// run's stream itself, `run.choices`, so the app's draws are recorded with the run's
  /// and shrink with them.
  ///
  /// Draw from it in the test's stand-ins for the world (a network, a disk, the user),
  /// on the thread that drives the system. A real app reads such values through
  /// `RecordedInputs` instead, so that a replay hands back the recorded ones.
  public var appChoices: Choices { appChoiceStream }

  /// Mixed into the seed for ``appChoices``' generator, so the app's draws are not the
  /// system's own sequence again.
  static let appChoiceStreamKey: UInt64 = 0xA99C_4011_CE5A_99C0
}
