import { Alert, Button, Group } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { Link } from 'react-router-dom';

/** A page whose screen is not built yet: a clear note and the way back. */
export function ComingSoon({ what }: { what: string }) {
  return (
    <Alert variant="light" color="blue" title="Coming in the next release" icon={<IconTools aria-hidden />}>
      {what} is being built and arrives in the next release. The game keeps running meanwhile: your buildings produce and
      sell every turn.
      <Group mt="md" gap="xs">
        <Button component={Link} to="/" size="xs" variant="light">
          Back to Dashboard
        </Button>
        <Button component={Link} to="/learning" size="xs" variant="subtle">
          Read the Learning Base
        </Button>
      </Group>
    </Alert>
  );
}
