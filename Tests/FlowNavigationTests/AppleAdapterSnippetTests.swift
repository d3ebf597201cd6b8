// The UIKit and SwiftUI snippets of docs/ADAPTERS.md and of the DocC article "Platform adapters",
// verbatim (`DocSnippetCheckTests` finds them here).
//
// UIKit and SwiftUI do not exist on Linux: in this package, on Linux, the code below is not compiled.
// Platforms/AppleAdapterCheck links this file into a test target and type-checks it against its stubs
// of UIKit and SwiftUI (`swift build --package-path Platforms/AppleAdapterCheck --build-tests`); on an
// Apple platform, this package compiles it against the real frameworks, and runs it there (SwiftUI on
// macOS; UIKit on iOS, tvOS, visionOS).
#if canImport(UIKit) && !os(watchOS)
import UIKit
#endif
#if canImport(SwiftUI)
import SwiftUI
#endif
import CoordinatorExamples
import FlowNavigation
import Testing

#if canImport(SwiftUI)
struct FirstLaunchView: View {
    let navigator: SwiftUINavigator<FirstLaunchAccount.Screen>

    var body: some View {
        FlowNavigationView(navigator) { screen in
            Text(screen.description)
        }
    }
}
#endif

@Suite("Docs: the UIKit and SwiftUI adapter snippets (compiled on Apple platforms, type-checked on Linux)")
struct AppleAdapterSnippetTests {
    #if canImport(UIKit) && !os(watchOS)
    @Test("docs/ADAPTERS.md: a UIKit navigator under a coordinator")
    @MainActor
    func uiKit() throws {
        let window = UIWindow(frame: .zero)
        let navigator = UIKitNavigator<FirstLaunchAccount.Screen> { screen in
            let controller = UIViewController(nibName: nil, bundle: nil)
            controller.title = screen.description
            return controller
        }
        window.rootViewController = navigator.rootViewController
        let host = try FirstLaunchAccount.Host(navigator: navigator)
        try host.createAccount()   // UIKit presents the email screen; a swipe down reports .dismissed(.email)
        #expect(navigator.model.stacks == [[.welcome], [.email]])
    }
    #endif

    #if canImport(SwiftUI)
    @Test("docs/ADAPTERS.md: a SwiftUI navigator under a coordinator")
    @MainActor
    func swiftUI() throws {
        let navigator = SwiftUINavigator<FirstLaunchAccount.Screen>()
        let host = try FirstLaunchAccount.Host(navigator: navigator)
        let view = FirstLaunchView(navigator: navigator)   // the app's root view
        try host.createAccount()                           // the email sheet is presented
        #expect(navigator.model.stacks == [[.welcome], [.email]])
        #expect(view.navigator === navigator)
    }
    #endif
}
