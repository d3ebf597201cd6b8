// swift-tools-version: 6.2
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
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
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
                .product(name: "HeapModule", package: "swift-collections"),
            ]
        ),
        .target(name: "FlowNavigation", dependencies: ["Flowstate"]),
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
        .target(
            name: "FlowstateExamples",
            dependencies: ["Flowstate"],
            path: "Examples/Flows"
        ),
        .target(
            name: "CoordinatorExamples",
            dependencies: ["Flowstate", "FlowNavigation"],
            path: "Examples/Coordinators"
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
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "FlowNavigationTests",
            dependencies: [
                "Flowstate",
                "FlowNavigation",
                "CoordinatorExamples",
                "FlowGraph",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "FlowGraphTests",
            dependencies: [
                "flowviz",
                "FlowGraph",
                "FlowSpec",
                "FlowGraphviz",
                "FlowstateExamples",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Golden"), .copy("Flows"), .copy("W3C")]
        ),
        .testTarget(
            name: "FlowTestingTests",
            dependencies: [
                "Flowstate",
                "FlowTesting",
                "FlowNavigation",
                "FlowstateExamples",
                "CoordinatorExamples",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
