#include "app/gui/worksheet_print.h"

#include <cairo-pdf.h>
#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "vit/base/error.h"

namespace app {
namespace {

// Page sizes in points (1/72 inch).
constexpr double kA4[2] = {595.28, 841.89}, kLetter[2] = {612, 792};
constexpr double kMargin = 48, kBody = 10.5, kHeading = 13, kTitle = 17, kLine = 1.35;
constexpr double kPhoto = 230;            // the photo's side on paper, points (8 cm)
constexpr double kPngScale = 150.0 / 72;  // 150 dpi
constexpr const char* kFont = "DejaVu Sans";

using Surface = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;
using Context = std::unique_ptr<cairo_t, decltype(&cairo_destroy)>;

Surface recording(double w, double h) {
    cairo_rectangle_t extents{0, 0, w, h};
    return Surface(cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &extents), cairo_surface_destroy);
}

// The photo as a cairo image (ARGB32, opaque).
Surface photo_surface(const vit::Image& img) {
    Surface s(cairo_image_surface_create(CAIRO_FORMAT_RGB24, img.width, img.height), cairo_surface_destroy);
    cairo_surface_flush(s.get());
    unsigned char* data = cairo_image_surface_get_data(s.get());
    const int stride = cairo_image_surface_get_stride(s.get());
    for (int y = 0; y < img.height; ++y) {
        auto* row = reinterpret_cast<uint32_t*>(data + static_cast<size_t>(y) * stride);
        for (int x = 0; x < img.width; ++x)
            row[x] = (uint32_t{img.at(x, y, 0)} << 16) | (uint32_t{img.at(x, y, 1)} << 8) | img.at(x, y, 2);
    }
    cairo_surface_mark_dirty(s.get());
    return s;
}

void draw_photo_grid(cairo_t* cr, cairo_surface_t* photo, const vit::Image& img, int grid, int query_row, int query_col,
                     double x0, double y0, double size);

// Lays the sheet out top to bottom on pages of `w` x `h` points, each page a recording.
class Pages {
public:
    Pages(const WorksheetContent& c, double w, double h) : c_(c), w_(w), h_(h), photo_(photo_surface(c.photo)) {}

    std::vector<Surface> lay_out() {
        new_page();
        text(c_.title, kTitle, true);
        text("On " + c_.photo_name + ", " + std::to_string(c_.grid) + " \xC3\x97 " + std::to_string(c_.grid) +
                 " patches; a patch is named (row, column), from (0, 0) at the top left.",
             kBody, false);
        text("Name: ______________________________", kBody, false);
        y_ += 6;
        for (const WorksheetItem& item : c_.items) {
            // Measured first on a scratch page: an exercise that does not fit starts the next page.
            const double need = measure(item);
            if (y_ + need > h_ - kMargin && y_ > kMargin + 1) new_page();
            item_(item);
        }
        finish_page();
        return std::move(pages_);
    }

private:
    void new_page() {
        finish_page();
        current_ = recording(w_, h_);
        cr_ = Context(cairo_create(current_.get()), cairo_destroy);
        cairo_set_source_rgb(cr_.get(), 1, 1, 1);
        cairo_paint(cr_.get());
        y_ = kMargin;
        ++page_;
    }
    void finish_page() {
        if (!cr_) return;
        footer();
        cr_.reset();
        pages_.push_back(std::move(current_));
        current_ = Surface(nullptr, cairo_surface_destroy);
    }
    void footer() {
        font(8, false);
        cairo_set_source_rgb(cr_.get(), 0.4, 0.4, 0.4);
        cairo_move_to(cr_.get(), kMargin, h_ - kMargin / 2);
        const std::string f = c_.title + " \xE2\x80\x94 page " + std::to_string(page_);
        cairo_show_text(cr_.get(), f.c_str());
    }
    void font(double size, bool bold) {
        cairo_select_font_face(cr_.get(), kFont, CAIRO_FONT_SLANT_NORMAL,
                               bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
        cairo_set_font_size(cr_.get(), size);
    }
    double advance(const std::string& s) {
        cairo_text_extents_t e;
        cairo_text_extents(cr_.get(), s.c_str(), &e);
        return e.x_advance;
    }
    // Wrapped at spaces within [x, right]; returns the lines' count.
    void text(const std::string& s, double size, bool bold, double x = kMargin, double right = -1) {
        if (right < 0) right = w_ - kMargin;
        font(size, bold);
        cairo_set_source_rgb(cr_.get(), 0, 0, 0);
        std::string line;
        auto flush = [&] {
            y_ += size * kLine;
            cairo_move_to(cr_.get(), x, y_ - size * 0.3);
            cairo_show_text(cr_.get(), line.c_str());
            line.clear();
        };
        size_t from = 0;
        while (from <= s.size()) {
            size_t sp = s.find(' ', from);
            if (sp == std::string::npos) sp = s.size();
            const std::string word = s.substr(from, sp - from);
            const std::string tried = line.empty() ? word : line + " " + word;
            if (!line.empty() && x + advance(tried) > right) {
                flush();
                line = word;
            } else {
                line = tried;
            }
            from = sp + 1;
        }
        if (!line.empty()) flush();
    }
    void item_(const WorksheetItem& item) {
        cairo_set_source_rgb(cr_.get(), 0.6, 0.6, 0.6);
        cairo_set_line_width(cr_.get(), 0.5);
        cairo_move_to(cr_.get(), kMargin, y_ + 2);
        cairo_line_to(cr_.get(), w_ - kMargin, y_ + 2);
        cairo_stroke(cr_.get());
        y_ += 4;
        text(std::to_string(item.exercise) + ". " + item.title, kHeading, true);
        for (const std::string& p : item.text) {
            text(p, kBody, false);
            y_ += 2;
        }
        if (!item.given.empty()) {
            text("The numbers you need:", kBody, true);
            for (const session::GivenNumber& g : item.given) {
                const double before = y_;
                text(g.label, kBody, false, kMargin + 12, w_ - kMargin - 90);
                font(kBody, false);
                cairo_move_to(cr_.get(), w_ - kMargin - advance(g.shown), before + kBody * kLine - kBody * 0.3);
                cairo_show_text(cr_.get(), g.shown.c_str());
            }
            y_ += 3;
        }
        if (item.photo) {
            photo_grid(item);
            text("The query is outlined in blue. " + item.how, kBody * 0.9, false);
        } else if (!item.options.empty()) {
            text(item.how, kBody * 0.9, false);
            for (size_t i = 0; i < item.options.size(); ++i)
                text("\xE2\x98\x90 " + std::to_string(i + 1) + ". " + item.options[i], kBody, false, kMargin + 8);
        } else {
            y_ += 4;
            text(item.how + " ________________________", kBody, false);
        }
        y_ += 10;
    }
    // The photo with the patch grid, row and column numbers along its edges, the query outlined.
    void photo_grid(const WorksheetItem& item) {
        const double label = 12, y0 = y_ + label + 2;
        draw_photo_grid(cr_.get(), photo_.get(), c_.photo, c_.grid, item.query_row, item.query_col, kMargin + label, y0,
                        kPhoto);
        y_ = y0 + kPhoto + 4;
    }
    // The height `item` takes, laid out on a scratch page.
    double measure(const WorksheetItem& item) {
        Surface scratch = recording(w_, h_);
        Context saved = std::move(cr_);
        cr_ = Context(cairo_create(scratch.get()), cairo_destroy);
        const double y = y_;
        y_ = 0;
        item_(item);
        const double need = y_;
        cr_ = std::move(saved);
        y_ = y;
        return need;
    }

    const WorksheetContent& c_;
    double w_, h_, y_ = 0;
    int page_ = 0;
    Surface photo_;
    Surface current_{nullptr, cairo_surface_destroy};
    Context cr_{nullptr, cairo_destroy};
    std::vector<Surface> pages_;
};

cairo_status_t append(void* out, const unsigned char* data, unsigned int length) {
    static_cast<std::string*>(out)->append(reinterpret_cast<const char*>(data), length);
    return CAIRO_STATUS_SUCCESS;
}

void check(cairo_status_t status, const char* what) {
    if (status != CAIRO_STATUS_SUCCESS)
        throw vit::Error(std::string("cairo could not ") + what + ": " + cairo_status_to_string(status));
}

// The photo with its grid, numbered, the query outlined, at (x0, y0) `size` points a side.
void draw_photo_grid(cairo_t* cr, cairo_surface_t* photo, const vit::Image& img, int grid, int query_row, int query_col,
                     double x0, double y0, double size) {
    const double cell = size / grid;
    cairo_select_font_face(cr, kFont, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, std::max(6.5, cell * 0.45));
    cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
    for (int i = 0; i < grid; ++i) {
        const std::string n = std::to_string(i);
        cairo_text_extents_t e;
        cairo_text_extents(cr, n.c_str(), &e);
        cairo_move_to(cr, x0 + (i + 0.5) * cell - e.x_advance / 2, y0 - 3);
        cairo_show_text(cr, n.c_str());
        cairo_move_to(cr, x0 - 2 - e.x_advance, y0 + (i + 0.5) * cell + e.height / 2);
        cairo_show_text(cr, n.c_str());
    }
    cairo_save(cr);
    cairo_translate(cr, x0, y0);
    cairo_scale(cr, size / img.width, size / img.height);
    cairo_set_source_surface(cr, photo, 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
    cairo_paint(cr);
    cairo_restore(cr);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
    cairo_set_line_width(cr, std::max(0.6, size / 400));
    for (int i = 1; i < grid; ++i) {
        cairo_move_to(cr, x0 + i * cell, y0);
        cairo_line_to(cr, x0 + i * cell, y0 + size);
        cairo_move_to(cr, x0, y0 + i * cell);
        cairo_line_to(cr, x0 + size, y0 + i * cell);
    }
    cairo_stroke(cr);
    if (query_row >= 0) {
        cairo_set_source_rgb(cr, 0, 0.63, 0.88);
        cairo_set_line_width(cr, std::max(2.0, size / 120));
        cairo_rectangle(cr, x0 + query_col * cell + 1, y0 + query_row * cell + 1, cell - 2, cell - 2);
        cairo_stroke(cr);
    }
}

}  // namespace

std::string photo_grid_png(const vit::Image& photo, int grid, int query_row, int query_col, int side) {
    const double margin = side * 0.06;
    const int total = static_cast<int>(std::lround(side + margin + 4));
    Surface image(cairo_image_surface_create(CAIRO_FORMAT_RGB24, total, total), cairo_surface_destroy);
    Context cr(cairo_create(image.get()), cairo_destroy);
    cairo_set_source_rgb(cr.get(), 1, 1, 1);
    cairo_paint(cr.get());
    Surface p = photo_surface(photo);
    draw_photo_grid(cr.get(), p.get(), photo, grid, query_row, query_col, margin, margin, side);
    check(cairo_status(cr.get()), "draw the photo");
    std::string out;
    check(cairo_surface_write_to_png_stream(image.get(), append, &out), "write the PNG");
    return out;
}

Paper parse_paper(const std::string& name) {
    if (name == "a4" || name == "A4") return Paper::A4;
    if (name == "letter" || name == "Letter") return Paper::Letter;
    throw vit::Error("--paper '" + name + "' is not a paper size (a4 or letter)");
}

std::string worksheet_pdf(const WorksheetContent& c, Paper paper) {
    const double* size = paper == Paper::A4 ? kA4 : kLetter;
    std::vector<Surface> pages = Pages(c, size[0], size[1]).lay_out();
    std::string out;
    {
        Surface pdf(cairo_pdf_surface_create_for_stream(append, &out, size[0], size[1]), cairo_surface_destroy);
        cairo_pdf_surface_set_metadata(pdf.get(), CAIRO_PDF_METADATA_TITLE, (c.title + ": " + c.photo_name).c_str());
        cairo_pdf_surface_set_metadata(pdf.get(), CAIRO_PDF_METADATA_CREATOR, "vitscope exercises");
        Context cr(cairo_create(pdf.get()), cairo_destroy);
        for (const Surface& page : pages) {
            cairo_set_source_surface(cr.get(), page.get(), 0, 0);
            cairo_paint(cr.get());
            cairo_show_page(cr.get());
        }
        check(cairo_status(cr.get()), "draw the worksheet");
        cr.reset();
        cairo_surface_finish(pdf.get());
        check(cairo_surface_status(pdf.get()), "write the PDF");
    }
    return out;
}

std::string worksheet_png(const WorksheetContent& c, Paper paper) {
    const double* size = paper == Paper::A4 ? kA4 : kLetter;
    std::vector<Surface> pages = Pages(c, size[0], size[1]).lay_out();
    const int w = static_cast<int>(std::lround(size[0] * kPngScale)),
              h = static_cast<int>(std::lround(size[1] * kPngScale));
    const int gap = 12;
    Surface image(cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, static_cast<int>(pages.size()) * (h + gap) - gap),
                  cairo_surface_destroy);
    Context cr(cairo_create(image.get()), cairo_destroy);
    cairo_set_source_rgb(cr.get(), 0.55, 0.55, 0.55);  // between the pages
    cairo_paint(cr.get());
    for (size_t i = 0; i < pages.size(); ++i) {
        cairo_save(cr.get());
        cairo_translate(cr.get(), 0, static_cast<double>(i) * (h + gap));
        cairo_scale(cr.get(), kPngScale, kPngScale);
        cairo_set_source_surface(cr.get(), pages[i].get(), 0, 0);
        cairo_paint(cr.get());
        cairo_restore(cr.get());
    }
    check(cairo_status(cr.get()), "draw the worksheet");
    std::string out;
    check(cairo_surface_write_to_png_stream(image.get(), append, &out), "write the PNG");
    return out;
}

}  // namespace app
