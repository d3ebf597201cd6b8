/// This release of Flowstate: its version, written in one place.
///
/// Flowstate follows [semantic versioning](https://semver.org/spec/v2.0.0.html): what the version
/// covers, and what it does not, is written in `docs/STABILITY.md`. `CHANGELOG.md` records each
/// release under a heading that names this version, `flowviz --version` prints it, and the checked-in
/// public API descriptions (`Tests/API/*.api`) name it in their headers; `VersionTests` and
/// `make check-api` hold them to it.
///
/// (Not `FlowstateVersion`: the toolchain's symbol graphs, which DocC and the API check read, leave out
/// every symbol whose name starts with its module's name followed by `Version`.)
public enum FlowstateRelease {
    /// The version of this release, `major.minor.patch` (for example `1.0.0`), as
    /// [semantic versioning](https://semver.org/spec/v2.0.0.html) writes it.
    public static let version = "1.0.0"
}
