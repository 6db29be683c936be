"""Written by ``python -m bots.ismcts.vegetables_fit`` (151889 turn ends);
held-out log-loss: planner's values 0.6600, learned 0.5830."""

#: per feature (bots.ismcts.vegetables.FEATURES), the seat that has just
#: moved first, then the seat to move
WEIGHTS = (
    0.0165273520981623,  # just moved: score
    -0.03240826098975418,  # just moved: unfinished x opp_block
    -0.09675440191217344,  # just moved: unfinished x no_reserve
    0.026376652972737228,  # just moved: reserve (capped)
    -0.029896952393974257,  # just moved: tractors
    0.2934048085689621,  # just moved: opp_options
    0.38171759869634175,  # just moved: secured
    0.12059925714739432,  # just moved: runs (capped)
    0.29361745599338446,  # just moved: runs
    0.16136559789706229,  # just moved: held (Wells low)
    0.11584265624191746,  # just moved: reserve
    -0.046418869843268935,  # just moved: hand
    0.18830981236500474,  # just moved: grounds
    0.016062858547602723,  # just moved: unfinished
    -0.0003447840101656051,  # just moved: wells
    -0.15101728536360304,  # just moved: opp_locked
    0.012490689215707562,  # just moved: opp_tractors
    0.08918398255278104,  # just moved: opp_none
    -0.011722503467851699,  # to move: score
    0.04141322744335135,  # to move: unfinished x opp_block
    0.0,  # to move: unfinished x no_reserve
    -0.0400083446414125,  # to move: reserve (capped)
    0.01249068921565797,  # to move: tractors
    -0.2879623109345687,  # to move: opp_options
    -0.47423981755466427,  # to move: secured
    -0.15412459753215052,  # to move: runs (capped)
    -0.30451089941701975,  # to move: runs
    -0.15734619697979957,  # to move: held (Wells low)
    -0.08866350297706935,  # to move: reserve
    0.03827499386439978,  # to move: hand
    -0.20534341814344542,  # to move: grounds
    0.016062858547602723,  # to move: unfinished
    -0.0003447840101656051,  # to move: wells
    0.14129397655303577,  # to move: opp_locked
    -0.029896952393974257,  # to move: opp_tractors
    -0.0011524701121610385,  # to move: opp_none
)
BIAS = -0.03151539372926729
