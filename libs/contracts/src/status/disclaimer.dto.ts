import { ApiProperty } from '@nestjs/swagger';
import { PARTICIPATION_DISCLAIMER } from './participation-disclaimer';
import { ApiText } from '../common/api-fields';

/** The participation disclaimer clients must show (`must_display`); fixed server content. */
export class DisclaimerDto {
  @ApiProperty({ type: String, description: 'Constant disclaimer code.', default: PARTICIPATION_DISCLAIMER.code })
  code!: string;

  @ApiProperty({ type: String, description: 'Version of the text, a date.', default: PARTICIPATION_DISCLAIMER.version, example: PARTICIPATION_DISCLAIMER.version })
  version!: string;

  @ApiProperty({ type: String, description: 'Title.', default: PARTICIPATION_DISCLAIMER.title })
  title!: string;

  @ApiProperty({ type: Boolean, description: 'Clients must show the disclaimer.', default: true })
  must_display!: boolean;

  @ApiProperty({ type: String, description: 'Where the Markdown form is served.', default: PARTICIPATION_DISCLAIMER.url })
  url!: string;

  @ApiProperty({ type: String, description: 'One-paragraph summary.', default: PARTICIPATION_DISCLAIMER.summary })
  summary!: string;

  @ApiText('Full text (Markdown); equals `full_text`.')
  text!: string;

  @ApiText('Full text (Markdown).')
  full_text!: string;
}
