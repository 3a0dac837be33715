#pragma once
// Plain-text tables for the benchmarks and `wavescope kernels`: every column is
// as wide as its widest cell (title included), so a long kernel name widens its
// column instead of pushing the rest of its row out of line.
#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

namespace ws::bench {

class TextTable {
 public:
  enum class Align { Left, Right };
  struct Column {
    std::string title;
    Align align = Align::Left;
  };

  explicit TextTable(std::vector<Column> columns, std::string gap = "  ")
      : columns_(std::move(columns)), gap_(std::move(gap)) {}

  // Missing cells at the end of a row print as empty; extra cells are an error of the caller.
  void add_row(std::vector<std::string> cells) {
    cells.resize(columns_.size());
    rows_.push_back(std::move(cells));
  }
  bool empty() const { return rows_.empty(); }

  std::vector<size_t> widths() const {
    std::vector<size_t> w;
    for (const auto& c : columns_) w.push_back(c.title.size());
    for (const auto& r : rows_)
      for (size_t i = 0; i < r.size(); ++i) w[i] = std::max(w[i], r[i].size());
    return w;
  }

  void print(std::ostream& out) const {
    const auto w = widths();
    std::vector<std::string> titles;
    for (const auto& c : columns_) titles.push_back(c.title);
    print_row(out, titles, w);
    for (const auto& r : rows_) print_row(out, r, w);
  }

 private:
  void print_row(std::ostream& out, const std::vector<std::string>& cells, const std::vector<size_t>& w) const {
    std::string line;
    for (size_t i = 0; i < cells.size(); ++i) {
      const std::string pad(w[i] - cells[i].size(), ' ');
      if (i) line += gap_;
      line += columns_[i].align == Align::Left ? cells[i] + pad : pad + cells[i];
    }
    line.erase(line.find_last_not_of(' ') + 1);  // no trailing blanks after a short last cell
    out << line << "\n";
  }

  std::vector<Column> columns_;
  std::string gap_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace ws::bench
