/**
 * The "Turn processed!" toast (spec section 4) with a link to the week's results (issue 10, point 3):
 * the story of the turn is one click away.
 */
import { Link } from 'react-router-dom';
import { Anchor, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';

export function showTurnProcessed(processedWeek: number | undefined): void {
  const id = notifications.show({
    title: 'Turn processed!',
    color: 'green',
    withBorder: true,
    message: (
      <>
        <Text size="sm" span>
          The game week has advanced. Check your earnings!
        </Text>{' '}
        {processedWeek !== undefined && processedWeek > 0 && (
          // Following the link closes the toast: left open, it would cover the top of the results page.
          <Anchor component={Link} to={`/reports/${processedWeek}`} size="sm" data-testid="toast-week-results" onClick={() => notifications.hide(id)}>
            See week {processedWeek} results
          </Anchor>
        )}
      </>
    ),
  });
}
