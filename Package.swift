// swift-tools-version: 6.2
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "Flowstate",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "Flowstate", targets: ["Flowstate"]),
        .library(name: "FlowGraph", targets: ["FlowGraph"]),
        .library(name: "FlowSpec", targets: ["FlowSpec"]),
        .library(name: "FlowGraphviz", targets: ["FlowGraphviz"]),
        .library(name: "FlowNavigation", targets: ["FlowNavigation"]),
        .library(name: "FlowTesting", targets: ["FlowTesting"]),
        .executable(name: "flowviz", targets: ["flowviz"]),
        .executable(name: "flowstate-codegen", targets: ["flowstate-codegen"]),
        .plugin(name: "FlowCodegen", targets: ["FlowCodegen"]),
        .library(name: "FlowstateExamples", targets: ["FlowstateExamples"]),
        .library(name: "CoordinatorExamples", targets: ["CoordinatorExamples"]),
        .executable(name: "flowstate-examples", targets: ["flowstate-examples"]),
        .library(name: "FlowstateMacros", targets: ["FlowstateMacros"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax.git", "600.0.0"..<"604.0.0"),
    ],
    targets: [
        .target(
            name: "Flowstate",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        .target(name: "FlowGraph", dependencies: ["Flowstate"]),
        .target(
            name: "FlowSpec",
            dependencies: [
                "Flowstate", "FlowGraph",
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        .target(
            name: "FlowNavigation",
            dependencies: ["Flowstate", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "FlowTesting",
            dependencies: [
                "Flowstate",
                "FlowNavigation",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .systemLibrary(
            name: "CGraphviz",
            pkgConfig: "libgvc",
            providers: [.apt(["libgraphviz-dev"]), .brew(["graphviz"])]
        ),
        .target(name: "FlowGraphviz", dependencies: ["Flowstate", "FlowGraph", "CGraphviz"]),
        .executableTarget(
            name: "flowviz",
            dependencies: [
                "FlowGraph",
                "FlowGraphviz",
                "FlowSpec",
                "Flowstate",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The typed Swift of a flow file, at build time: the plugin runs the tool on a target's `.scxml`
        // and `.flowspec.json` files. The tool needs FlowSpec alone (no Graphviz).
        .executableTarget(name: "flowstate-codegen", dependencies: ["FlowSpec"]),
        .plugin(name: "FlowCodegen", capability: .buildTool(), dependencies: ["flowstate-codegen"]),
        .target(
            name: "GeneratedFlows",
            dependencies: ["Flowstate"],
            path: "Examples/GeneratedFlows",
            plugins: ["FlowCodegen"]
        ),
        // `@FlowEvent` (docs/PERFORMANCE.md has the clean-build cost of swift-syntax): only this
        // product and its tests build swift-syntax; no other target depends on it.
        .macro(
            name: "FlowstateMacrosPlugin",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        .target(name: "FlowstateMacros", dependencies: ["Flowstate", "FlowstateMacrosPlugin"]),
        // The sign-up example with `@FlowEvent`, apart from `FlowstateExamples` so that the examples,
        // the demo and the tests that use them never wait for swift-syntax (docs/PERFORMANCE.md).
        .target(name: "FlowstateMacroExamples", dependencies: ["FlowstateMacros"], path: "Examples/MacroFlows"),
        .testTarget(
            name: "FlowstateMacrosTests",
            dependencies: [
                "FlowstateMacros",
                "FlowstateMacrosPlugin",
                "FlowstateMacroExamples",
                "FlowstateExamples",
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
            ]
        ),
        .target(
            name: "FlowstateExamples",
            dependencies: ["Flowstate"],
            path: "Examples/Flows"
        ),
        .target(
            name: "CoordinatorExamples",
            dependencies: ["Flowstate", "FlowNavigation"],
            path: "Examples/Coordinators",
            // The shop's two-factor step is written as SCXML (`shop-two-factor.scxml`), typed at build time.
            plugins: ["FlowCodegen"]
        ),
        .executableTarget(
            name: "flowstate-examples",
            dependencies: [
                "CoordinatorExamples",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/Run"
        ),
        .executableTarget(
            name: "flowstate-demo",
            dependencies: ["Flowstate", "FlowstateExamples", "CoordinatorExamples", "FlowGraph", "FlowGraphviz", "FlowSpec"],
            path: "Examples/Demo"
        ),
        .testTarget(
            name: "FlowstateTests",
            dependencies: [
                "Flowstate",
                "FlowstateExamples",
                "FlowTestSupport",
                "FlowTesting",  // ManualClock, for the runtime's and the supervisor's timers
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "FlowNavigationTests",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                "flowstate-examples",
                "Flowstate",
                "FlowNavigation",
                "CoordinatorExamples",
                "FlowGraph",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // One test target per module (issue 22). Helpers and fixtures they share have one home each:
        // FlowTestSupport (Flowstate and FlowGraph level: fixture paths in the source tree, golden files,
        // scratch folders, sample flows, SVG readers, the headless browser, `eventually`) and FlowSpecTestSupport (the
        // flow files, SCXML corpora and W3C suite kept in Tests/FlowSpecTests, the SCXML round trip).
        // Neither needs Graphviz.
        .target(
            name: "FlowTestSupport",
            dependencies: ["Flowstate", "FlowGraph", .product(name: "PropertyBased", package: "swift-property-based")],
            path: "Tests/FlowTestSupport"
        ),
        .target(
            name: "FlowSpecTestSupport",
            dependencies: ["FlowSpec", "FlowTestSupport"],
            path: "Tests/FlowSpecTestSupport"
        ),
        // FlowGraph's DOT is checked by Graphviz's own parser and renderer, hence FlowGraphviz here.
        .testTarget(
            name: "FlowGraphTests",
            dependencies: [
                "FlowGraph",
                "FlowGraphviz",
                "Flowstate",
                "FlowstateExamples",
                "FlowTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Golden"]
        ),
        // The flow-file reader, writer, interpreter and explorer: no Graphviz, no flowviz.
        .testTarget(
            name: "FlowSpecTests",
            dependencies: [
                "FlowSpec",
                "FlowGraph",
                "Flowstate",
                "FlowstateExamples",
                "FlowSpecTestSupport",
                "FlowTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Corpus", "Flows", "Golden", "W3C"]
        ),
        .testTarget(
            name: "FlowGraphvizTests",
            dependencies: [
                "FlowGraphviz",
                "FlowGraph",
                "FlowSpec",
                "Flowstate",
                "FlowstateExamples",
                "FlowSpecTestSupport",
                "FlowTestSupport",
            ]
        ),
        .testTarget(
            name: "FlowvizTests",
            dependencies: [
                "flowviz",
                "FlowGraph",
                "FlowSpec",
                "Flowstate",
                "FlowstateExamples",
                "FlowSpecTestSupport",
                "FlowTestSupport",
            ]
        ),
        .testTarget(
            name: "FlowTestingTests",
            dependencies: [
                "Flowstate",
                "FlowGraph",
                "FlowSpec",
                "FlowTesting",
                "FlowNavigation",
                "FlowstateExamples",
                "CoordinatorExamples",
                "GeneratedFlows",
                "FlowTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
