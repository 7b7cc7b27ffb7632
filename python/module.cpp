// The Python module vitscope._vitscope: vitscope's own model loader,
// preprocessing, forward and backward pass (src/vit) bound with pybind11, the
// trace handed over as NumPy float32 arrays. python/vitscope/__init__.py wraps
// it as vitscope.Model. Nothing here computes: every number is src/vit's, the
// same as the command line's (tests/python/python_module_test.py checks it).
// Paths arrive as bytes (os.fsencode in __init__.py), so any file name the
// file system holds can be opened; the GIL is released while files are read,
// photos decoded and the model runs, so other Python threads keep going.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "vit/analysis/block_parts.h"
#include "vit/base/default_model.h"
#include "vit/base/error.h"
#include "vit/formats/checkpoint.h"
#include "vit/forward/backward.h"
#include "vit/forward/classes.h"
#include "vit/forward/forward.h"
#include "vit/image/image.h"
#include "vit/image/preprocess.h"
#include "vit/model/labels.h"

namespace py = pybind11;

namespace {

using FloatArray = py::array_t<float, py::array::c_style>;

// A new C-ordered float32 array of this shape holding n floats from data.
FloatArray array_of(std::vector<py::ssize_t> shape, const float* data) {
    FloatArray a(shape);
    py::ssize_t n = 1;
    for (py::ssize_t s : shape) n *= s;
    std::memcpy(a.mutable_data(), data, static_cast<size_t>(n) * sizeof(float));
    return a;
}

FloatArray matrix(const vit::Mat& m) { return array_of({m.rows(), m.cols()}, m.data()); }

// [L, H, rows, cols] from one matrix of every layer and head (row-major Mats).
template <typename Pick>
FloatArray stack_heads(const vit::Trace& t, Pick pick) {
    const vit::Mat& first = pick(t.layers[0].heads[0]);
    const py::ssize_t layers = t.layers.size(), heads = t.layers[0].heads.size();
    FloatArray a({layers, heads, static_cast<py::ssize_t>(first.rows()), static_cast<py::ssize_t>(first.cols())});
    float* out = a.mutable_data();
    for (const auto& layer : t.layers)
        for (const auto& head : layer.heads) {
            const vit::Mat& m = pick(head);
            std::memcpy(out, m.data(), m.size() * sizeof(float));
            out += m.size();
        }
    return a;
}

// A file name from Python (bytes) as C++ opens it: a NUL would silently cut
// it short at c_str() ("dog\0.jpg" would open "dog"), so it is refused.
void check_path(const std::string& path) {
    if (path.find('\0') == std::string::npos) return;
    std::string shown;
    for (char c : path) shown += c == '\0' ? std::string("\\0") : std::string(1, c);
    throw vit::Error(shown + ": a path cannot hold a NUL byte (\\0)");
}

// Bytes from the file system (a path) as Python's os.fsdecode gives them: a
// name that is not UTF-8 keeps its bytes as surrogate escapes.
py::str fs_text(const std::string& bytes) {
    PyObject* text = PyUnicode_DecodeFSDefaultAndSize(bytes.data(), static_cast<Py_ssize_t>(bytes.size()));
    if (!text) throw py::error_already_set();
    return py::reinterpret_steal<py::str>(text);
}

// A loaded model and what a run needs of it.
class PyModel {
public:
    // Reading and converting the weights takes a while: other threads run meanwhile.
    static std::unique_ptr<PyModel> load(const std::string& dir) {
        check_path(dir);
        py::gil_scoped_release unlocked;
        return std::unique_ptr<PyModel>(new PyModel(dir, vit::load_model(dir)));
    }

    py::dict info() const {
        const vit::Model& m = model_;
        py::dict d;
        d["path"] = fs_text(dir_);
        d["scheme"] = m.scheme;
        d["weights"] = fs_text(m.weights_file);
        d["layers"] = m.depth;
        d["heads"] = m.heads;
        d["dim"] = m.dim;
        d["head_dim"] = m.head_dim;
        d["mlp_dim"] = m.mlp_dim;
        d["patch"] = m.patch;
        d["input_size"] = m.config.pre.input_size;
        d["prefix"] = m.prefix_tokens();
        d["registers"] = m.num_registers;
        d["distillation_token"] = m.has_dist_token;
        d["num_classes"] = m.num_classes();
        d["parameters"] = m.parameter_count();
        d["preprocessing"] = vit::describe_preprocessing(m.config.pre);
        return d;
    }

    std::vector<std::string> labels() const {
        std::vector<std::string> names;
        for (int c = 0; c < model_.num_classes(); ++c) names.push_back(vit::label_of(model_, c));
        return names;
    }

    int find_class(const std::string& name_or_index) const { return vit::find_class(model_, name_or_index); }

    // The photo at PATH as the model's input: (3, S, S) float32 and the crop (x, y, w, h) on the photo.
    py::tuple preprocess(const std::string& path, int size) const {
        vit::Input in = input_from_path(path, size);
        return py::make_tuple(array_of({3, in.size, in.size}, in.chw.data()),
                              py::make_tuple(in.crop.x, in.crop.y, in.crop.w, in.crop.h));
    }

    py::dict run_path(const std::string& path, int size, bool parts) const {
        return run(input_from_path(path, size), parts);
    }
    py::dict run_array(const FloatArray& chw, int size, bool parts) const {
        return run(input_from_array(chw, size), parts);
    }

    py::dict gradients_path(const std::string& path, int cls, int size) const {
        return gradients(input_from_path(path, size), cls);
    }
    py::dict gradients_array(const FloatArray& chw, int cls, int size) const {
        return gradients(input_from_array(chw, size), cls);
    }

private:
    PyModel(const std::string& dir, vit::Model model) : dir_(dir), model_(std::move(model)) {}

    void check_size(int size) const {
        if (size < 0 || size % model_.patch != 0)
            throw vit::Error("size " + std::to_string(size) + " is not a multiple of the patch size " +
                             std::to_string(model_.patch));
        if (size) vit::check_input_size(model_, size, {});
    }

    // Reading, decoding (a 60-megapixel JPEG takes a second) and preprocessing without the GIL.
    vit::Input input_from_path(const std::string& path, int size) const {
        check_path(path);
        check_size(size);
        py::gil_scoped_release unlocked;
        return vit::preprocess(vit::load_image(path), model_.config.pre, size);
    }

    vit::Input input_from_array(const FloatArray& chw, int size) const {
        if (chw.ndim() != 3 || chw.shape(0) != 3 || chw.shape(1) != chw.shape(2))
            throw vit::Error("a preprocessed input is a (3, S, S) array, got shape " + shape_text(chw));
        const int s = static_cast<int>(chw.shape(1));
        if (size && size != s)
            throw vit::Error("size=" + std::to_string(size) + " differs from the array's side " + std::to_string(s));
        if (s == 0) throw vit::Error("a preprocessed input of side 0");
        check_size(s);
        vit::Input in;
        in.size = s;
        in.chw.assign(chw.data(), chw.data() + chw.size());
        in.crop = {0, 0, static_cast<double>(s), static_cast<double>(s)};
        return in;
    }

    static std::string shape_text(const FloatArray& a) {
        std::string t = "(";
        for (py::ssize_t i = 0; i < a.ndim(); ++i) t += (i ? ", " : "") + std::to_string(a.shape(i));
        return t + (a.ndim() == 1 ? ",)" : ")");
    }

    vit::Trace forward(const vit::Input& in) const {
        py::gil_scoped_release unlocked;
        return vit::forward(model_, in);
    }

    py::dict run(const vit::Input& in, bool parts) const {
        const vit::Trace t = forward(in);
        py::dict d;
        d["input"] = array_of({3, in.size, in.size}, in.chw.data());
        d["crop"] = py::make_tuple(in.crop.x, in.crop.y, in.crop.w, in.crop.h);
        d["grid"] = t.grid;
        d["prefix"] = t.prefix;
        d["tokens"] = t.tokens;
        d["attention"] = stack_heads(t, [](const vit::HeadTrace& h) -> const vit::Mat& { return h.attn; });
        d["q"] = stack_heads(t, [](const vit::HeadTrace& h) -> const vit::Mat& { return h.q; });
        d["k"] = stack_heads(t, [](const vit::HeadTrace& h) -> const vit::Mat& { return h.k; });
        d["v"] = stack_heads(t, [](const vit::HeadTrace& h) -> const vit::Mat& { return h.v; });
        d["out"] = stack_heads(t, [](const vit::HeadTrace& h) -> const vit::Mat& { return h.out; });
        // The residual stream: entering each block, then leaving the last one (L + 1, N, dim).
        const py::ssize_t layers = t.layers.size(), n = t.tokens, dim = t.last_block_out.cols();
        FloatArray residual({layers + 1, n, dim});
        float* r = residual.mutable_data();
        for (const auto& layer : t.layers) r = std::copy(layer.x_in.data(), layer.x_in.data() + layer.x_in.size(), r);
        std::copy(t.last_block_out.data(), t.last_block_out.data() + t.last_block_out.size(), r);
        d["residual"] = residual;
        d["final"] = matrix(t.final_tokens);
        d["logits"] = array_of({static_cast<py::ssize_t>(t.logits.size())}, t.logits.data());
        if (parts) add_block_parts(t, d);
        return d;
    }

    // Each block's LayerNorm outputs, attention and MLP branches and the
    // stream between them (vit::block_parts, as `vitscope dump --arrays` has them), (L, N, dim) each.
    void add_block_parts(const vit::Trace& t, py::dict& d) const {
        const py::ssize_t layers = t.layers.size(), n = t.tokens, dim = model_.dim;
        FloatArray ln1({layers, n, dim}), attn_proj({layers, n, dim}), mid({layers, n, dim}), ln2({layers, n, dim}),
            mlp({layers, n, dim});
        const size_t step = static_cast<size_t>(n * dim);
        for (py::ssize_t l = 0; l < layers; ++l) {
            vit::BlockParts p;
            {
                py::gil_scoped_release unlocked;
                p = vit::block_parts(model_, t, static_cast<int>(l));
            }
            std::copy(p.ln1.data(), p.ln1.data() + step, ln1.mutable_data() + l * step);
            std::copy(p.attn_branch.data(), p.attn_branch.data() + step, attn_proj.mutable_data() + l * step);
            std::copy(p.mid.data(), p.mid.data() + step, mid.mutable_data() + l * step);
            std::copy(p.ln2.data(), p.ln2.data() + step, ln2.mutable_data() + l * step);
            std::copy(p.mlp_branch.data(), p.mlp_branch.data() + step, mlp.mutable_data() + l * step);
        }
        d["ln1"] = ln1;
        d["attn_proj"] = attn_proj;
        d["residual_mid"] = mid;
        d["ln2"] = ln2;
        d["mlp"] = mlp;
    }

    py::dict gradients(const vit::Input& in, int cls) const {
        const vit::Trace t = forward(in);
        vit::Gradients g;
        {
            py::gil_scoped_release unlocked;
            g = vit::class_gradients(model_, t, cls);
        }
        const py::ssize_t layers = t.layers.size(), heads = t.layers[0].heads.size(), n = t.tokens,
                          dim = g.x_out.cols();
        FloatArray attn({layers, heads, n, n}), x_in({layers, n, dim});
        float* a = attn.mutable_data();
        for (const auto& layer : g.attn)
            for (const vit::Mat& m : layer) a = std::copy(m.data(), m.data() + m.size(), a);
        float* x = x_in.mutable_data();
        for (const vit::Mat& m : g.x_in) x = std::copy(m.data(), m.data() + m.size(), x);
        py::dict d;
        d["class_index"] = g.target_class;
        d["logit"] = g.logit;
        d["attention"] = attn;
        d["x_in"] = x_in;
        d["x_out"] = matrix(g.x_out);
        return d;
    }

    std::string dir_;
    vit::Model model_;
};

py::str default_model_path(bool installed) {
#ifdef VITSCOPE_SOURCE_DIR
    return fs_text(vit::default_model_dir(installed ? "" : VITSCOPE_SOURCE_DIR));
#else
    (void)installed;
    return fs_text(vit::default_model_dir(""));
#endif
}

// vitscope.Error, kept for the translator below (the module is never unloaded).
PyObject* error_type = nullptr;

// vit::Error's message as vitscope.Error's: a path quoted in it that is not
// UTF-8 shows its bytes as \xNN instead of failing to become a str.
void translate_error(std::exception_ptr p) {
    try {
        if (p) std::rethrow_exception(p);
    } catch (const vit::Error& e) {
        const std::string text = e.what();
        PyObject* message = PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "backslashreplace");
        if (!message) return;  // out of memory: that error is already set
        PyErr_SetObject(error_type, message);
        Py_DECREF(message);
    }
}

}  // namespace

PYBIND11_MODULE(_vitscope, m) {
    m.doc() = "vitscope's C++ model code (src/vit); use vitscope.Model";
    // vit::Error (a refused input) as vitscope.Error, a ValueError; __init__.py
    // turns the file system's refusals into FileNotFoundError and the like.
    error_type = py::register_exception<vit::Error>(m, "Error", PyExc_ValueError).inc_ref().ptr();
    py::register_exception_translator(&translate_error);
    m.def("default_model_path", &default_model_path, py::arg("installed"));
    m.def("shipped_labels_dir", [] { return fs_text(vit::shipped_labels_dir()); });
    py::class_<PyModel>(m, "Model")
        .def(py::init(&PyModel::load), py::arg("path"))
        .def("info", &PyModel::info)
        .def("labels", &PyModel::labels)
        .def("find_class", &PyModel::find_class, py::arg("name_or_index"))
        .def("preprocess", &PyModel::preprocess, py::arg("path"), py::arg("size") = 0)
        .def("run_path", &PyModel::run_path, py::arg("path"), py::arg("size") = 0, py::arg("parts") = false)
        .def("run_array", &PyModel::run_array, py::arg("chw"), py::arg("size") = 0, py::arg("parts") = false)
        .def("gradients_path", &PyModel::gradients_path, py::arg("path"), py::arg("cls"), py::arg("size") = 0)
        .def("gradients_array", &PyModel::gradients_array, py::arg("chw"), py::arg("cls"), py::arg("size") = 0);
}
