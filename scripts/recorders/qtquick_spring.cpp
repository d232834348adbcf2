// Records Qt Quick's SpringAnimation for `kinetics compare spring`: a QML
// property with `Behavior on v { SpringAnimation { ... } }` set from 0 to 1,
// on Qt's own animation clock driven frame by frame (a QAnimationDriver
// whose time is the frame's, in whole milliseconds as Qt keeps it), the
// property read after each frame. A physical spring k, c (mass 1) is given
// to Qt as it takes it, per 16 ms step: spring = k·0.016, damping = c·0.016
// (qquickspringanimation.cpp: velocity += spring·Δ − damping·velocity;
// value += velocity·16/1000). The default epsilon, 0.01, is kept.
//
//   g++ -std=c++17 -fPIC qtquick_spring.cpp $(pkg-config --cflags --libs Qt6Qml Qt6Gui)
//   ./a.out FOLDER        writes qtquick-spring-k300-c12-60hz.csv and the others
#include <QAnimationDriver>
#include <QGuiApplication>
#include <QQmlComponent>
#include <QQmlEngine>
#include <cstdio>
#include <string>

namespace {

class FrameDriver : public QAnimationDriver {
public:
    qint64 now = 0;
    qint64 elapsed() const override { return now; }
    void frame(qint64 ms) {
        QCoreApplication::processEvents();
        now = ms;
        advance();
    }
};

bool record(const std::string &folder, double k, double c, int fps) {
    FrameDriver driver;
    driver.install();
    QQmlEngine engine;
    QQmlComponent component(&engine);
    const QString qml = QStringLiteral(
        "import QtQuick\nItem { property real v: 0; "
        "Behavior on v { SpringAnimation { spring: %1; damping: %2 } } }")
        .arg(k * 0.016, 0, 'g', 17).arg(c * 0.016, 0, 'g', 17);
    component.setData(qml.toUtf8(), QUrl());
    QObject *item = component.create();
    if (!item) {
        fprintf(stderr, "qtquick_spring: %s\n", qPrintable(component.errorString()));
        return false;
    }
    const std::string name = folder + "/qtquick-spring-k" + std::to_string(int(k)) + "-c" + std::to_string(int(c))
        + "-" + std::to_string(fps) + "hz.csv";
    FILE *out = fopen(name.c_str(), "w");
    if (!out) {
        perror(name.c_str());
        return false;
    }
    fprintf(out, "time,value\n");
    driver.frame(0);
    item->setProperty("v", 1.0);
    for (int frame = 0; frame <= 2 * fps; ++frame) {
        const qint64 ms = qint64(frame) * 1000 / fps;
        driver.frame(ms);
        fprintf(out, "%.17g,%.17g\n", ms / 1000.0, item->property("v").toDouble());
    }
    fclose(out);
    delete item;
    driver.uninstall();
    return true;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: qtquick_spring FOLDER\n");
        return 64;
    }
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    fprintf(stderr, "qtquick_spring: Qt %s\n", qVersion());
    for (const auto &spring : {std::pair{300.0, 12.0}, std::pair{2000.0, 40.0}}) {
        for (const int fps : {60, 120}) {
            if (!record(argv[1], spring.first, spring.second, fps)) return 1;
        }
    }
    return 0;
}
