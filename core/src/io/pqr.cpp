#include "kmol/core/io/pqr.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string_view>
#include <type_traits>

#include "kmol/core/errors.hpp"

namespace kmol::io {
namespace {

struct Record {
  Vec3<double> position;
  double charge = 0, radius = 0;
  std::string name, residue_name, chain;
  std::int32_t residue_id = 0;
};

// Why a line did not parse in one form, and how far it got (the form that got further explains).
struct Failure {
  std::string field, what;
  int fields_parsed = 0;
};

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

std::vector<std::string_view> split(std::string_view s) {
  std::vector<std::string_view> tokens;
  for (std::size_t i = 0; i < s.size();) {
    const auto start = s.find_first_not_of(" \t", i);
    if (start == std::string_view::npos) break;
    const auto end = std::min(s.find_first_of(" \t", start), s.size());
    tokens.push_back(s.substr(start, end - start));
    i = end;
  }
  return tokens;
}

bool parse(std::string_view text, double& value) {
  text = trim(text);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && ec == std::errc() && end == text.data() + text.size();
}

bool parse(std::string_view text, std::int32_t& value) {
  text = trim(text);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && ec == std::errc() && end == text.data() + text.size();
}

// Parses the numeric fields in order, counting successes; false with `failure` set on the first bad
// one.
class FieldReader {
 public:
  explicit FieldReader(Failure& failure) : failure_(failure) {}

  template <class T>
  bool read(std::string_view text, const char* field, const char* expected, T& value) {
    if (!parse(text, value)) {
      failure_ = {field,
                  std::string("expected ") + expected + ", found '" + std::string(trim(text)) + "'",
                  parsed_};
      return false;
    }
    if constexpr (std::is_floating_point_v<T>) {
      if (!std::isfinite(value)) {
        failure_ = {field, "is not finite ('" + std::string(trim(text)) + "')", parsed_};
        return false;
      }
    }
    ++parsed_;
    return true;
  }

  bool read_tail(std::string_view x, std::string_view y, std::string_view z, std::string_view q,
                 std::string_view r, Record& rec) {
    if (!read(x, "x", "a coordinate in Angstrom", rec.position.x) ||
        !read(y, "y", "a coordinate in Angstrom", rec.position.y) ||
        !read(z, "z", "a coordinate in Angstrom", rec.position.z) ||
        !read(q, "charge", "a charge in e", rec.charge) ||
        !read(r, "radius", "a radius in Angstrom", rec.radius))
      return false;
    if (rec.radius < 0) {
      failure_ = {"radius", "must not be negative (found " + std::string(trim(r)) + ")", parsed_};
      return false;
    }
    return in_range(x, "x", rec.position.x, max_pqr_coordinate, "Angstrom") &&
           in_range(y, "y", rec.position.y, max_pqr_coordinate, "Angstrom") &&
           in_range(z, "z", rec.position.z, max_pqr_coordinate, "Angstrom") &&
           in_range(q, "charge", rec.charge, max_pqr_charge, "e") &&
           in_range(r, "radius", rec.radius, max_pqr_radius, "Angstrom");
  }

  int parsed() const { return parsed_; }

  // A finite value beyond any atom's (a damaged field) is refused with the accepted range: it
  // would otherwise overflow the lattice or the potential.
  bool in_range(std::string_view text, const char* field, double value, double limit,
                const char* unit) {
    if (std::abs(value) <= limit) return true;
    char range[64];
    std::snprintf(range, sizeof range, "%g", limit);
    failure_ = {field,
                "is " + std::string(trim(text)) + ": expected at most " + range + " " + unit +
                    " in magnitude",
                parsed_};
    return false;
  }

 private:
  Failure& failure_;
  int parsed_ = 0;
};

// ATOM or HETATM, possibly run together with a long serial number ("HETATM10001").
bool is_atom_record(std::string_view first_token) {
  for (std::string_view tag : {"ATOM", "HETATM"})
    if (first_token.substr(0, tag.size()) == tag &&
        first_token.find_first_not_of("0123456789", tag.size()) == std::string_view::npos)
      return true;
  return false;
}

bool parse_whitespace_form(std::string_view line, Record& rec, Failure& failure) {
  auto tokens = split(line);
  const std::string_view first = tokens.front();
  const std::size_t tag = first[0] == 'A' ? 4 : 6;
  if (first.size() > tag) {  // serial run into the record name
    tokens.front() = first.substr(0, tag);
    tokens.insert(tokens.begin() + 1, first.substr(tag));
  }
  const std::size_t n = tokens.size();
  if (n != 10 && n != 11) {
    failure = {"record",
               "expected 'ATOM serial name residue [chain] resid x y z charge radius' (10 or 11 "
               "whitespace-separated fields) or pdb2pqr's fixed columns, found " +
                   std::to_string(n) + " fields",
               0};
    return false;
  }
  const bool with_chain = n == 11;
  rec.name = tokens[2];
  rec.residue_name = tokens[3];
  rec.chain = with_chain ? std::string(tokens[4]) : std::string();
  FieldReader reader(failure);
  const std::size_t k = with_chain ? 5 : 4;
  return reader.read(tokens[k], "residue id", "an integer", rec.residue_id) &&
         reader.read_tail(tokens[k + 1], tokens[k + 2], tokens[k + 3], tokens[k + 4], tokens[k + 5],
                          rec);
}

bool parse_fixed_form(std::string_view line, Record& rec, Failure& failure) {
  if (line.size() < 54) {
    failure = {"record", "too short for pdb2pqr's fixed columns (coordinates end at column 54)", 0};
    return false;
  }
  rec.name = trim(line.substr(12, 4));
  rec.residue_name = trim(line.substr(17, 4));
  rec.chain = trim(line.substr(21, 1));
  FieldReader reader(failure);
  if (!reader.read(line.substr(22, 4), "residue id", "an integer in columns 23-26", rec.residue_id))
    return false;
  const auto tail = split(line.substr(54));
  if (tail.size() != 2) {
    if (!reader.read(line.substr(30, 8), "x", "a coordinate in columns 31-38", rec.position.x))
      return false;
    failure = {"charge",
               "expected 'charge radius' after column 54, found " + std::to_string(tail.size()) +
                   " fields",
               reader.parsed() + 3};
    return false;
  }
  return reader.read_tail(line.substr(30, 8), line.substr(38, 8), line.substr(46, 8), tail[0],
                          tail[1], rec);
}

bool same_numbers(const Record& a, const Record& b) {
  return a.position.x == b.position.x && a.position.y == b.position.y &&
         a.position.z == b.position.z && a.charge == b.charge && a.radius == b.radius &&
         a.residue_id == b.residue_id;
}

}  // namespace

double PqrAtoms::total_charge() const {
  double sum = 0;
  for (double q : charges) sum += q;
  return sum;
}

PqrAtoms parse_pqr(std::istream& in, const std::string& source) {
  PqrAtoms atoms;
  std::string line;
  for (long line_no = 1; std::getline(in, line); ++line_no) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto tokens = split(line);
    if (tokens.empty() || !is_atom_record(tokens.front())) continue;
    Record rec, columns;
    Failure loose, fixed;
    if (parse_whitespace_form(line, rec, loose)) {
      // A long atom name runs into the residue name in pdb2pqr's columns ("HD21ASN"): where the
      // columns read the same numbers, their names are the right ones.
      if (parse_fixed_form(line, columns, fixed) && same_numbers(rec, columns)) rec = columns;
    } else {
      rec = Record{};
      if (!parse_fixed_form(line, rec, fixed)) {
        const Failure& why = fixed.fields_parsed > loose.fields_parsed ? fixed : loose;
        throw InputError({source, why.field, line_no},
                         "line " + std::to_string(line_no) + ": " + why.what);
      }
    }
    atoms.positions.push_back(rec.position);
    atoms.charges.push_back(rec.charge);
    atoms.radii.push_back(rec.radius);
    atoms.atom_names.push_back(std::move(rec.name));
    atoms.residue_names.push_back(std::move(rec.residue_name));
    atoms.residue_ids.push_back(rec.residue_id);
    atoms.chains.push_back(std::move(rec.chain));
  }
  if (atoms.size() == 0)
    throw InputError({source, "atoms", -1},
                     "no ATOM or HETATM records (a PQR file needs at least one atom)");
  return atoms;
}

PqrAtoms read_pqr(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError({path, "", -1}, "cannot open the file");
  return parse_pqr(in, path);
}

}  // namespace kmol::io
