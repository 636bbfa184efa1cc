import Foundation

extension Recording {
    /// A self-contained HTML page that plays the recording: the first frame as inline SVG, the
    /// frames as compact inline data (positions and rotations in tenths, only for objects that
    /// move), and a small script — nothing is fetched from the network.
    ///
    /// Controls: play/pause (space), a frame slider (← / → step one frame), the time and frame
    /// number, playback speed and loop. It starts playing at once; open it with `#end`,
    /// `#frame=K` (0-based) or `#t=SECONDS` to start paused at that frame (handy for
    /// screenshots).
    public func html() -> String {
        let n = frameCount
        guard n > 0 else { return "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>empty recording</title></head><body></body></html>\n" }
        let all = Array(0..<n)
        let g = pictureFrame(frames: all)
        var caption = title
        if !captions[0].isEmpty && !title.isEmpty { caption += " · " + captions[0] }
        let svg = document(g, caption: caption, frame: 0, animation: nil)

        // Which tracks change, and how.
        func differs(_ a: [Float], stride: Int, component: Int, tolerance: Float) -> Bool {
            let v0 = a[component]
            for f in 1..<n where abs(a[f * stride + component] - v0) > tolerance { return true }
            return false
        }
        var moving: [Int] = [], fading: [Int] = [], recolouring: [Int] = []
        var anyScale = false
        for t in tracks.indices {
            let v = tracks[t].values
            let scaled = hasViewData && (differs(tracks[t].scales, stride: 2, component: 0, tolerance: 0.00004)
                || differs(tracks[t].scales, stride: 2, component: 1, tolerance: 0.00004))
            if differs(v, stride: 4, component: 0, tolerance: 0.04) || differs(v, stride: 4, component: 1, tolerance: 0.04)
                || differs(v, stride: 4, component: 2, tolerance: 0.04) || scaled {
                moving.append(t)
            }
            if hasViewData {
                anyScale = anyScale || tracks[t].scales.contains { $0 != 1 }
            }
            if differs(v, stride: 4, component: 3, tolerance: 0.0004) { fading.append(t) }
            if hasViewData, tracks[t].fills.contains(where: { $0 != tracks[t].fills[0] }) { recolouring.append(t) }
        }
        let stride = anyScale ? 5 : 3

        var d = ""
        d.reserveCapacity(n * (moving.count * stride * 6 + fading.count * 4 + recolouring.count * 11 + 40) + 1_000)
        func int(_ v: Float, _ scale: Float) { d += String(Int((v * scale).rounded())) }
        d += "{\"title\":"; json(title, into: &d)
        d += ",\"ps\":\(stride),\"mv\":["; d += moving.map(String.init).joined(separator: ","); d += "]"
        d += ",\"av\":["; d += fading.map(String.init).joined(separator: ","); d += "]"
        d += ",\"fv\":["; d += recolouring.map(String.init).joined(separator: ","); d += "]"
        d += ",\"times\":["
        for (i, t) in times.enumerated() { if i > 0 { d += "," }; SVGFormat.appendNumber(t, decimals: 4, to: &d) }
        d += "],\"cap\":["
        for (i, c) in captions.enumerated() { if i > 0 { d += "," }; json(c, into: &d) }
        d += "]"
        /// `,"key":[…]`: one array a frame, of `item(track, frame)` for each track of `list`.
        func perFrame(_ key: String, _ list: [Int], frameSeparator: String = ",", _ item: (_ track: Int, _ frame: Int) -> Void) {
            d += ",\n\""; d += key; d += "\":["
            for f in 0..<n {
                if f > 0 { d += frameSeparator }
                d += "["
                for (j, t) in list.enumerated() { if j > 0 { d += "," }; item(t, f) }
                d += "]"
            }
            d += "]"
        }
        perFrame("p", moving, frameSeparator: ",\n") { t, f in
            let v = tracks[t].values
            int(v[4 * f], 10); d += ","; int(v[4 * f + 1], 10); d += ","; int(v[4 * f + 2], 10)
            if stride == 5 {
                d += ","; int(tracks[t].scales[2 * f], 10_000); d += ","; int(tracks[t].scales[2 * f + 1], 10_000)
            }
        }
        if !fading.isEmpty {
            perFrame("a", fading) { t, f in int(max(tracks[t].values[4 * f + 3], 0), 1000) }
        }
        if !recolouring.isEmpty {
            perFrame("f", recolouring) { t, f in
                let hex = String(tracks[t].fills[f], radix: 16)
                d += "\""; d += String(repeating: "0", count: 8 - hex.count); d += hex; d += "\""
            }
        }
        let usedOverlays = Set(overlayOfFrame)
        if usedOverlays.count > 1 {
            d += ",\n\"ov\":["; d += overlayOfFrame.map { String($0) }.joined(separator: ","); d += "]"
            d += ",\n\"ovs\":["
            for k in overlays.indices {
                if k > 0 { d += "," }
                if usedOverlays.contains(Int32(k)) { json(overlayMarkup(k, g), into: &d) } else { d += "\"\"" }
            }
            d += "]"
        }
        d += "}"

        var s = ""
        s.reserveCapacity(svg.utf8.count + d.utf8.count + 6_000)
        s += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"
        s += SVGFormat.escape(title.isEmpty ? "DynamicsKit recording" : title)
        s += "</title>\n<style>\n"
        s += Self.playerCSS
        s += "</style>\n</head>\n<body>\n<div id=\"bar\">\n"
        s += "<button id=\"play\" type=\"button\" title=\"Play / pause (space)\">Pause</button>\n"
        s += "<input id=\"slider\" type=\"range\" min=\"0\" max=\"\(n - 1)\" value=\"0\" step=\"1\" title=\"Frame (← →)\">\n"
        s += "<span id=\"time\">t = "; SVGFormat.appendNumber(times[0], to: &s); s += " s</span>\n"
        s += "<label>speed <select id=\"speed\"><option value=\"0.25\">0.25×</option><option value=\"0.5\">0.5×</option>"
        s += "<option value=\"1\" selected>1×</option><option value=\"2\">2×</option><option value=\"4\">4×</option></select></label>\n"
        s += "<label><input id=\"loop\" type=\"checkbox\" checked> loop</label>\n</div>\n"
        s += "<div id=\"stage\">\n"
        s += svg
        s += "</div>\n<script>\nconst REC = "
        s += d
        s += ";\n"
        s += Self.playerJS
        s += "</script>\n</body>\n</html>\n"
        return s
    }

    /// Appends `text` as a JSON string literal, safe inside a `<script>` element.
    private func json(_ text: String, into d: inout String) {
        d += "\""
        SVGFormat.appendEscaped(text, to: &d, replacing: Self.jsonEscapes) { ch in
            let h = String(ch.value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - h.count) + h
        }
        d += "\""
    }

    /// What a JSON string literal in a `<script>` element writes for these (other control
    /// characters are written as `\u00XX`).
    private static let jsonEscapes: [Unicode.Scalar: String] = [
        "\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t",
        "<": "\\u003c", "\u{2028}": "\\u2028", "\u{2029}": "\\u2029",
    ]

    static let playerCSS = """
        body { margin: 0; font: 13px Helvetica, Arial, sans-serif; background: #eeeeea; color: #222; }
        #bar { display: flex; gap: 12px; align-items: center; padding: 8px 12px; background: #fff;
               border-bottom: 1px solid #ccc; position: sticky; top: 0; }
        #slider { flex: 1; min-width: 120px; }
        #time { font-variant-numeric: tabular-nums; min-width: 15em; }
        #play { min-width: 5em; }
        #stage { padding: 12px; text-align: center; }
        #stage > svg { max-width: 100%; height: auto; background: #fff; box-shadow: 0 1px 4px rgba(0,0,0,.2); }

        """

    static let playerJS = """
        (function () {
          "use strict";
          const R = REC, n = R.times.length, st = R.ps;
          const byId = (id) => document.getElementById(id);
          const moving = R.mv.map((i) => byId("t" + i));
          const fading = R.av.map((i) => byId("t" + i));
          const recolouring = R.fv.map((i) => byId("t" + i + "r"));
          const overlay = byId("overlay"), caption = byId("caption");
          const slider = byId("slider"), play = byId("play"), time = byId("time");
          const speed = byId("speed"), loop = byId("loop");
          let cur = -1, curOverlay = R.ov ? R.ov[0] : 0, playing = false, wall0 = 0;

          function show(k) {
            k = Math.max(0, Math.min(n - 1, k | 0));
            if (k === cur) return;
            cur = k;
            const P = R.p[k];
            for (let j = 0; j < moving.length; j++) {
              const b = j * st;
              let tr = "translate(" + P[b] / 10 + " " + P[b + 1] / 10 + ")";
              if (P[b + 2] !== 0) tr += " rotate(" + P[b + 2] / 10 + ")";
              if (st === 5 && (P[b + 3] !== 10000 || P[b + 4] !== 10000)) tr += " scale(" + P[b + 3] / 10000 + " " + P[b + 4] / 10000 + ")";
              moving[j].setAttribute("transform", tr);
            }
            if (R.a) { const A = R.a[k]; for (let j = 0; j < fading.length; j++) fading[j].setAttribute("opacity", A[j] / 1000); }
            if (R.f) {
              const F = R.f[k];
              for (let j = 0; j < recolouring.length; j++) {
                recolouring[j].setAttribute("fill", "#" + F[j].slice(0, 6));
                recolouring[j].setAttribute("fill-opacity", (parseInt(F[j].slice(6), 16) / 255).toFixed(3));
              }
            }
            if (R.ov && R.ov[k] !== curOverlay) { curOverlay = R.ov[k]; overlay.innerHTML = R.ovs[curOverlay]; }
            slider.value = k;
            time.textContent = "t = " + R.times[k].toFixed(2) + " s \\u00b7 frame " + (k + 1) + " / " + n;
            if (caption) caption.textContent = R.title + (R.cap[k] && R.title ? " \\u00b7 " + R.cap[k] : "");
          }

          function frameAt(t) {
            let lo = 0, hi = n - 1;
            while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (R.times[mid] <= t) lo = mid; else hi = mid - 1; }
            return lo;
          }

          function tick(now) {
            if (!playing) return;
            let t = R.times[0] + (now - wall0) / 1000 * Number(speed.value);
            if (t > R.times[n - 1]) {
              if (loop.checked && n > 1) { wall0 = now; t = R.times[0]; cur = -1; }
              else { show(n - 1); setPlaying(false); return; }
            }
            show(frameAt(t));
            requestAnimationFrame(tick);
          }

          function setPlaying(p) {
            playing = p;
            play.textContent = p ? "Pause" : "Play";
            if (p) {
              if (cur >= n - 1) show(0);
              wall0 = performance.now() - (R.times[Math.max(cur, 0)] - R.times[0]) * 1000 / Number(speed.value);
              requestAnimationFrame(tick);
            }
          }

          play.addEventListener("click", () => setPlaying(!playing));
          slider.addEventListener("input", () => { setPlaying(false); show(Number(slider.value)); });
          speed.addEventListener("change", () => { if (playing) setPlaying(true); });
          document.addEventListener("keydown", (e) => {
            if (e.target && e.target.tagName === "SELECT") return;
            if (e.key === " ") { e.preventDefault(); setPlaying(!playing); }
            else if (e.key === "ArrowRight") { setPlaying(false); show(cur + 1); }
            else if (e.key === "ArrowLeft") { setPlaying(false); show(cur - 1); }
          });

          const h = location.hash.slice(1);
          show(0);
          if (h === "end") { show(n - 1); setPlaying(false); }
          else if (h.startsWith("frame=")) { show(Number(h.slice(6))); setPlaying(false); }
          else if (h.startsWith("t=")) { show(frameAt(Number(h.slice(2)))); setPlaying(false); }
          else setPlaying(n > 1);
        })();

        """
}
