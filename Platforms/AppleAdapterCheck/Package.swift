// swift-tools-version: 6.2
// Type-checks Flowstate's UIKit and SwiftUI adapters on Linux (docs/ADAPTERS.md).
//
// UIKit, SwiftUI and Combine do not exist on Linux, so the adapters (Sources/FlowNavigation/
// UIKitNavigator.swift, SwiftUINavigator.swift) are compiled in the real package on Apple platforms
// only. Here, targets literally named `UIKit`, `SwiftUI` and `Combine` are stubs (Stubs/) that declare
// only the Apple symbols the adapters use, with the signatures of Apple's documentation; `Linked/`
// holds symbolic links to the package's own sources (Flowstate, FlowNavigation, the coordinator
// examples) and to the test file that holds the adapters' documentation snippets. The same files
// are compiled, unchanged: `#if canImport(UIKit)` holds here, so building this package proves that
// the adapters and their snippets type-check against those signatures, in Swift 6 mode with strict
// concurrency. Nothing is run: the stubs have no behavior.
//
//     swift build --package-path Platforms/AppleAdapterCheck --build-tests
//
// Linux only: on an Apple platform the stubs would stand in for the real frameworks.
import PackageDescription

/// The project has no warnings: here, a warning in the adapters or their snippets fails the check (a
/// `@preconcurrency` API, such as `Binding(get:set:)`, reports isolation mistakes as warnings only).
let strict: [SwiftSetting] = [.unsafeFlags(["-warnings-as-errors"])]

#if canImport(Darwin)
fatalError("AppleAdapterCheck stands in for UIKit and SwiftUI on Linux; on an Apple platform, build the package itself.")
#endif

let package = Package(
    name: "AppleAdapterCheck",
    dependencies: [
        // Flowstate's own dependencies (the root package's Package.swift).
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),
    ],
    targets: [
        // The stubs.
        .target(name: "Combine", path: "Stubs/Combine", swiftSettings: strict),
        .target(name: "SwiftUI", dependencies: ["Combine"], path: "Stubs/SwiftUI", swiftSettings: strict),
        .target(name: "UIKit", path: "Stubs/UIKit", swiftSettings: strict),
        // The package's sources, through symbolic links.
        .target(
            name: "Flowstate",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            path: "Linked/Flowstate"
        ),
        .target(name: "FlowNavigation", dependencies: ["Flowstate", "UIKit", "SwiftUI", "Combine",
                                                      .product(name: "Logging", package: "swift-log")],
                path: "Linked/FlowNavigation", swiftSettings: strict),
        // The shop (and the scenarios that play it) needs its two-factor flow typed from SCXML by the
        // FlowCodegen build plugin, which this package does not build; it uses no adapter.
        .target(name: "CoordinatorExamples", dependencies: ["Flowstate", "FlowNavigation"],
                path: "Linked/CoordinatorExamples",
                exclude: ["Shop.swift", "SeedScenarios.swift", "shop-two-factor.scxml"]),
        // The adapters' documentation snippets (Tests/FlowNavigationTests/AppleAdapterSnippetTests.swift).
        // Swift Testing declares cross-import overlays for UIKit and SwiftUI, which only exist on Apple
        // platforms: with stubs of that name, the compiler must not look for them.
        .testTarget(name: "AdapterSnippets", dependencies: ["FlowNavigation", "CoordinatorExamples", "UIKit", "SwiftUI"],
                    path: "Linked/AdapterSnippets",
                    swiftSettings: strict + [.unsafeFlags(["-Xfrontend", "-disable-cross-import-overlays"])]),
    ],
    swiftLanguageModes: [.v6]
)
