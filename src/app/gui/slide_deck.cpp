#include "app/gui/slide_deck.h"

#include "app/gui/html_escaped.h"

namespace app {
namespace {

// One slide per screen: the picture fills it above the navigation bar, its
// caption as text below it (scrolled to). Printed: every slide, one to a
// landscape page, the caption under the picture, without the navigation.
constexpr const char* kStyle = R"(
*{box-sizing:border-box}
html,body{margin:0;height:100%;background:#111;color:#eee;font-family:"DejaVu Sans",Verdana,sans-serif}
.slide{display:none;height:100vh;overflow-y:auto;padding:0 0 3em}
.slide.current{display:block}
.slide img{display:block;margin:0 auto;max-width:100%;max-height:calc(100vh - 3em);width:auto;height:auto;cursor:pointer}
.caption{max-width:70em;margin:0 auto;padding:1em 2vw 2em;font-size:20px;line-height:1.4}
.caption h2{margin:0 0 0.4em;font-size:1.2em}
.caption .key{font-weight:bold}
.caption p{margin:0 0 0.5em}
nav{position:fixed;bottom:0;left:0;right:0;height:3em;display:flex;gap:1em;justify-content:center;align-items:center;
    background:rgba(17,17,17,0.92);font-size:18px}
nav button{font:inherit;padding:0.2em 1em;background:#334;color:#eee;border:1px solid #667;border-radius:4px;cursor:pointer}
nav button:disabled{opacity:0.4;cursor:default}
@media print{
  @page{size:landscape;margin:10mm}
  html,body{background:#fff;color:#000;height:auto}
  nav{display:none}
  .slide{display:block;height:auto;overflow:visible;padding:0;break-after:page;page-break-after:always}
  .slide:last-of-type{break-after:auto;page-break-after:auto}
  .slide img{max-height:105mm;max-width:100%}
  .caption{font-size:10pt;padding:2mm 0 0;max-width:none}
}
)";

// Left / Right, Page Up / Page Down, space, Home / End, a click on the
// picture's left or right half, and the buttons; #N in the address. Up and
// Down scroll the slide to its caption.
constexpr const char* kScript = R"(
(function () {
  var slides = Array.prototype.slice.call(document.querySelectorAll('.slide'));
  var back = document.getElementById('back'), next = document.getElementById('next');
  var where = document.getElementById('where');
  var at = 0;
  function show(i) {
    at = Math.max(0, Math.min(slides.length - 1, i));
    slides.forEach(function (s, k) { s.classList.toggle('current', k === at); });
    slides[at].scrollTop = 0;
    where.textContent = (at + 1) + ' / ' + slides.length;
    back.disabled = at === 0;
    next.disabled = at === slides.length - 1;
    document.body.dataset.slide = String(at + 1);
    if (location.hash !== '#' + (at + 1)) history.replaceState(null, '', '#' + (at + 1));
  }
  function fromHash() {
    var n = parseInt(location.hash.slice(1), 10);
    return isNaN(n) ? 0 : n - 1;
  }
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var k = e.key;
    if (k === 'ArrowRight' || k === 'PageDown' || k === ' ') show(at + 1);
    else if (k === 'ArrowLeft' || k === 'PageUp' || k === 'Backspace') show(at - 1);
    else if (k === 'Home') show(0);
    else if (k === 'End') show(slides.length - 1);
    else return;
    e.preventDefault();
  });
  slides.forEach(function (s) {
    s.querySelector('img').addEventListener('click', function (e) {
      var r = e.target.getBoundingClientRect();
      show(e.clientX < r.left + r.width / 2 ? at - 1 : at + 1);
    });
  });
  back.addEventListener('click', function () { show(at - 1); });
  next.addEventListener('click', function () { show(at + 1); });
  window.addEventListener('hashchange', function () { show(fromHash()); });
  show(fromHash());
})();
)";

}  // namespace

std::string slide_deck_html(const std::string& title, const std::vector<DeckSlide>& slides) {
    std::string html =
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
        html_escaped(title) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n";
    const int n = static_cast<int>(slides.size());
    for (int i = 0; i < n; ++i) {
        const DeckSlide& s = slides[static_cast<size_t>(i)];
        std::string alt = s.key;
        for (const std::string& p : s.rest) alt += (alt.empty() ? "" : " ") + p;
        html += "<section class=\"slide\" id=\"slide-" + std::to_string(i + 1) + "\" aria-label=\"Slide " +
                std::to_string(i + 1) + " of " + std::to_string(n) + "\">\n<img src=\"" + html_escaped(s.image) +
                "\" width=\"" + std::to_string(s.width) + "\" height=\"" + std::to_string(s.height) + "\" alt=\"" +
                html_escaped(alt) + "\">\n<div class=\"caption\">\n<h2>" + std::to_string(i + 1) + ". " +
                html_escaped(s.title) + "</h2>\n";
        if (!s.key.empty()) html += "<p class=\"key\">" + html_escaped(s.key) + "</p>\n";
        for (const std::string& p : s.rest) html += "<p>" + html_escaped(p) + "</p>\n";  // the caption, as text
        html += "</div>\n</section>\n";
    }
    html +=
        "<nav><button id=\"back\" type=\"button\">← Back</button><span id=\"where\"></span>"
        "<button id=\"next\" type=\"button\">Next →</button></nav>\n<script>" +
        std::string(kScript) + "</script>\n</body>\n</html>\n";
    return html;
}

}  // namespace app
