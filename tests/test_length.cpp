// Lengths as a person reads them (issue 30): to the nearest mark of a tape
// (0.5 cm, 1/4 in, 1 mm), the other of cm and in in brackets, while the
// exact value stays in every comparison (engine/core/length.hpp).
#include <catch2/catch.hpp>

#include "engine/core/length.hpp"

namespace t_length {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using vedette::format_length;
using vedette::format_length_prose;
using vedette::format_length_table;
using vedette::format_range_table;
using vedette::Length;
using vedette::LengthUnit;
using vedette::to_tape;
using vedette::to_tape_up;

TEST_CASE("lengths: a person reads them to a tape's mark, the other unit in brackets", "[length]") {
  CHECK(to_tape(15.24, LengthUnit::cm) == 15.0);
  CHECK(to_tape(15.26, LengthUnit::cm) == 15.5);
  CHECK(to_tape(22.86, LengthUnit::cm) == 23.0);
  CHECK(to_tape(0.79, LengthUnit::in) == 0.75);
  CHECK(to_tape(19.69, LengthUnit::in) == 19.75);
  CHECK(to_tape(152.4009, LengthUnit::mm) == 152.0);
  CHECK(to_tape_up(18.09, LengthUnit::in) == 18.25);  // a far edge past 18in is never shown as 18in
  CHECK(to_tape_up(18.0, LengthUnit::in) == 18.0);
  CHECK(to_tape_up(17.79, LengthUnit::in) == 18.0);
  // Seed 003's 6-inch minimum distance in a centimetre ruleset: 15.24 cm.
  CHECK(format_length_table(Length::of(6, LengthUnit::in), LengthUnit::cm) == "15 cm (6 in)");
  CHECK(format_length_table(Length::cm(22.86), LengthUnit::cm) == "23 cm (9 in)");
  CHECK(format_length_table(Length::cm(50), LengthUnit::cm) == "50 cm (19.75 in)");
  CHECK(format_length_table(Length::of(6, LengthUnit::in), LengthUnit::in) == "6 in (15 cm)");
  CHECK(format_length_prose(Length::cm(27.46), LengthUnit::cm) == "27.5 cm");
  CHECK(format_range_table(Length::cm(41), Length::cm(50), LengthUnit::cm) == "41-50 cm (16.25-19.75 in)");
  CHECK(format_length_table(Length::of(300, LengthUnit::mm), LengthUnit::mm) == "300 mm");
  // What the player typed or a file says is echoed exactly (errors, inputs).
  CHECK(format_length(Length::cm(15.24), LengthUnit::cm) == "15.24cm");
}

}  // namespace t_length
