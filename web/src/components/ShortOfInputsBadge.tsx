import { Badge } from '@mantine/core';

interface PlannedBuilding {
  selected_recipe_id: number | null;
  /** Units the next turn makes, as far as the warehouse's inputs allow (the server's). */
  next_turn_output: number;
  /** Units the turn plans (the server's). */
  effective_output: number;
}

/** 'Short of inputs' on a building whose recipe's inputs the warehouse does not cover (My Buildings, dashboard). */
export function ShortOfInputsBadge({ building }: { building: PlannedBuilding }) {
  if (building.selected_recipe_id === null || building.next_turn_output >= building.effective_output) return null;
  return (
    <Badge color="orange" variant="light" data-testid="short-inputs-badge" style={{ flexShrink: 0 }}>
      Short of inputs
    </Badge>
  );
}
